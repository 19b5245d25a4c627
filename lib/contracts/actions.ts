"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { importContracts, type ContractDiff, type ContractLineError } from "./store";

/** The largest price list the settings page takes (the CLI has no such limit). */
const MAX_CSV_CHARS = 900_000;

const importSchema = z.object({
  csv: z.string().min(1, "fileMissing").max(MAX_CSV_CHARS, "fileTooLarge"),
  fileName: z.string().max(200).default(""),
  /** false: check the file and show the diff only. */
  apply: z.boolean(),
});

/** Settings → Insurers: check (and, when asked, import) a payer price list (docs/decisions/089). */
export const importContractsAction = staffAction(
  AREAS.settings.roles,
  importSchema,
  async (input, ctx): Promise<ActionResult<{ applied: boolean; rows: number; insurers: string[]; diff: ContractDiff } | { applied: false; errors: ContractLineError[] }>> => {
    const result = await importContracts(ctx.db, ctx.caller, input.csv, { dryRun: !input.apply, fileName: input.fileName || undefined });
    if (!result.ok) return { ok: true, applied: false, errors: result.errors.slice(0, 200) };
    if (result.applied) revalidatePath("/settings/insurers");
    return { ok: true, applied: result.applied, rows: result.rows, insurers: result.insurers, diff: result.diff };
  },
  { name: "contracts" },
);

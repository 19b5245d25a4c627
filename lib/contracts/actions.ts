"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { contractLinePrices, liveClaimShares, type LiveShareLine } from "./claim-shares";
import type { shareTotals } from "./share";
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

const sharesSchema = z.object({
  patientId: z.uuid(),
  coverageId: z.uuid(),
  items: z
    .array(
      z.object({
        /** The line's code list (its URL; empty = CPT, as the form's lines saved before care settings). */
        system: z.string().trim().max(200).default(""),
        code: z.string().trim().regex(/^\S{1,60}$/),
        servicedDate: z.iso.date(),
        quantity: z.number().int().min(1).max(1000),
        unitPriceMinor: z.number().int().min(0).max(99_999_999_999),
        /** The line's position in the form (0-based). */
        index: z.number().int().min(0).max(999),
      }),
    )
    .max(100),
});

export type { LiveShareLine } from "./claim-shares";

/**
 * The claim form's live shares (docs/decisions/091): per complete line the payer's share, the
 * patient's and the VAT, with totals — computed exactly as the submit computes them
 * (`claimLineShares`: the contract of each line's date and the coverage's network and class, the
 * last eligibility answer of the patient and the coverage's payer). Billing's, like the form. The
 * form sends its complete lines only (code, date, quantity and price parsed as the form parses
 * them), each with its position. The coverage must be the patient's, so nothing of another
 * patient can be read through it. Audited as a view of the patient's shares.
 */
export const claimSharesAction = staffAction(
  AREAS.claims.roles,
  sharesSchema,
  async (input, ctx): Promise<ActionResult<{ lines: LiveShareLine[]; totals: ReturnType<typeof shareTotals>; vatPercent: number; answered: boolean; unknownLines: number[] }>> => {
    const shares = await liveClaimShares(ctx.db, input);
    if (!shares) return { ok: false, error: "not_found" };
    await ctx.audit({ action: "claim.shares_view", target: { type: "patient", id: input.patientId }, outcome: "success", details: { lines: shares.lines.length } });
    return { ok: true, ...shares };
  },
  { name: "contracts" },
);

const pricesSchema = z.object({
  patientId: z.uuid(),
  coverageId: z.uuid(),
  lines: z
    .array(
      z.object({
        system: z.string().trim().max(200).default(""),
        code: z.string().trim().regex(/^\S{1,60}$/),
        servicedDate: z.iso.date(),
        index: z.number().int().min(0).max(999),
      }),
    )
    .max(100),
});

/**
 * The contract price of the service lines of an authorization or claim being written (decision 123): the form fills a line's unit price with it (still editable) and shows it beside the
 * price. The coverage must be the patient's. Front desk and billing, as the authorization form.
 * A price list is the clinic's, not the patient's: not audited as a view of the patient.
 */
export const contractPricesAction = staffAction(
  AREAS.authorizations.roles,
  pricesSchema,
  async (input, ctx): Promise<ActionResult<{ prices: { index: number; priceMinor: number }[] }>> => {
    const prices = await contractLinePrices(ctx.db, input);
    if (!prices) return { ok: false, error: "not_found" };
    return { ok: true, prices };
  },
  { name: "contracts" },
);

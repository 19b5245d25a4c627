"use server";

import { z } from "zod";
import { AccessError, authorize } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { callerOf } from "./caller";
import type { PatientSummary } from "./registry";
import { addCoverageSchema, registerPatientSchema } from "./schemas";
import { auditedAddCoverage, auditedRegister, auditedSearch } from "./service";
import { log } from "@/lib/log";

export type FieldErrors = Record<string, string[] | undefined>;
export type ActionFailure = { ok: false; error: "unauthorized" | "forbidden" | "invalid" | "failed"; fieldErrors?: FieldErrors };

function denied(error: unknown): ActionFailure {
  if (error instanceof AccessError) return { ok: false, error: error.status === 401 ? "unauthorized" : "forbidden" };
  log("patients").error(`action failed: ${(error as Error).name}`);
  return { ok: false, error: "failed" };
}

/** Register a patient: front desk only; the same schema as the form, parsed again here. */
export async function registerPatientAction(input: unknown): Promise<{ ok: true; id: string } | ActionFailure> {
  try {
    const user = await authorize(["front_desk"]);
    const parsed = registerPatientSchema({ allowSandboxTestIds: env().PLATFORM_ENV === "sandbox" }).safeParse(input);
    if (!parsed.success) return { ok: false, error: "invalid", fieldErrors: z.flattenError(parsed.error).fieldErrors };
    const result = await auditedRegister(await getDb(), await callerOf(user), parsed.data);
    if (!result.ok) return { ok: false, error: "invalid", fieldErrors: { nationalId: [`duplicate:${result.existingId}`] } };
    return { ok: true, id: result.patient.id };
  } catch (error) {
    return denied(error);
  }
}

export async function addCoverageAction(input: unknown): Promise<{ ok: true; id: string } | ActionFailure> {
  try {
    const user = await authorize(["front_desk"]);
    const parsed = addCoverageSchema.safeParse(input);
    if (!parsed.success) return { ok: false, error: "invalid", fieldErrors: z.flattenError(parsed.error).fieldErrors };
    const result = await auditedAddCoverage(await getDb(), await callerOf(user), parsed.data);
    if (!result.ok) {
      const field = result.reason === "unknown_insurer" ? "insurerId" : result.reason === "duplicate" ? "memberId" : "patientId";
      const key = result.reason === "duplicate" ? "coverageDuplicate" : result.reason === "unknown_insurer" ? "insurerRequired" : "patientRequired";
      return { ok: false, error: "invalid", fieldErrors: { [field]: [key] } };
    }
    return { ok: true, id: result.coverage.id };
  } catch (error) {
    return denied(error);
  }
}

/** The patient picker's search (audited like the Patients page's). */
export async function searchPatientsAction(query: unknown): Promise<{ ok: true; patients: PatientSummary[] } | ActionFailure> {
  try {
    const user = await authorize(["front_desk"]);
    const q = z.string().max(100).safeParse(query);
    if (!q.success) return { ok: false, error: "invalid" };
    if (!q.data.trim()) return { ok: true, patients: [] };
    return { ok: true, patients: await auditedSearch(await getDb(), await callerOf(user), q.data, 8) };
  } catch (error) {
    return denied(error);
  }
}

"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { staffAction, AREAS } from "@/lib/auth";
import type { ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import type { PatientSummary } from "./registry";
import { addCoverageSchema, registerPatientSchema, updatePatientSchema } from "./schemas";
import { auditedAddCoverage, auditedRecordOfflineEligibility, auditedRegister, auditedRegisterNewborn, auditedSearch, auditedUpdate, patientListProblems } from "./service";
import { recordOfflineEligibilitySchema } from "./offline-schema";
import { plannedUnderProvided, sentUnderProvided } from "./sent-under";
import { registerNewbornSchema } from "./newborn-schema";

export type { ActionResult };

const frontDesk = AREAS.patients.roles;

/** Register a patient: front desk only; the same schema as the form, parsed again here. */
export const registerPatientAction = staffAction(
  frontDesk,
  // Built per call: sandbox test identities are accepted only when PLATFORM_ENV is sandbox.
  z.lazy(() => registerPatientSchema({ allowSandboxTestIds: env().PLATFORM_ENV === "sandbox" })),
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const listErrors = await patientListProblems(ctx.db, input);
    if (listErrors) return { ok: false, error: "invalid", fieldErrors: listErrors };
    const result = await auditedRegister(ctx.db, ctx.caller, input);
    if (!result.ok) return { ok: false, error: "invalid", fieldErrors: { nationalId: [`duplicate:${result.existingId}`] } };
    return { ok: true, id: result.patient.id };
  },
  { name: "patients" },
);

/** Correct a registered patient: front desk only; the national ID only while nothing was sent under it. */
export const updatePatientAction = staffAction(
  frontDesk,
  z.lazy(() => updatePatientSchema({ allowSandboxTestIds: env().PLATFORM_ENV === "sandbox" })),
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const listErrors = await patientListProblems(ctx.db, input);
    if (listErrors) return { ok: false, error: "invalid", fieldErrors: listErrors };
    const result = await auditedUpdate(ctx.db, ctx.caller, input, sentUnderProvided(), plannedUnderProvided());
    if (result.ok) {
      // The record's page as it is now: the browser's router drops the copy it kept from before the change.
      revalidatePath(`/patients/${result.patient.id}`);
      return { ok: true, id: result.patient.id };
    }
    if (result.reason === "not_found") return { ok: false, error: "not_found" };
    return { ok: false, error: "invalid", fieldErrors: { nationalId: [result.reason === "duplicate" ? `duplicate:${result.existingId}` : "nationalIdInUse"] } };
  },
  { name: "patients" },
);

/** Register a newborn from the mother's page (docs/decisions/110): front desk only; the form's schema parsed again here. */
export const registerNewbornAction = staffAction(
  frontDesk,
  z.lazy(() => registerNewbornSchema({ allowSandboxTestIds: env().PLATFORM_ENV === "sandbox" })),
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await auditedRegisterNewborn(ctx.db, ctx.caller, input);
    if (result.ok) return { ok: true, id: result.patient.id };
    if (result.reason === "mother_not_found") return { ok: false, error: "not_found" };
    if (result.reason === "born_before_mother") return { ok: false, error: "invalid", fieldErrors: { birthDate: ["birthBeforeMother"] } };
    return { ok: false, error: "invalid", fieldErrors: { nationalId: [`duplicate:${result.existingId}`] } };
  },
  { name: "patients" },
);

/** Record an offline eligibility the insurer gave while the exchange was unreachable (docs/decisions/111): front desk only. */
export const recordOfflineEligibilityAction = staffAction(
  frontDesk,
  recordOfflineEligibilitySchema,
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await auditedRecordOfflineEligibility(ctx.db, ctx.caller, input);
    if (result.ok) return { ok: true, id: result.row.id };
    if (result.reason === "patient_not_found") return { ok: false, error: "not_found" };
    return { ok: false, error: "invalid", fieldErrors: { coverageId: ["coverageUnknown"] } };
  },
  { name: "patients" },
);

export const addCoverageAction = staffAction(
  frontDesk,
  addCoverageSchema,
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await auditedAddCoverage(ctx.db, ctx.caller, input);
    if (!result.ok) {
      const field = result.reason === "unknown_insurer" ? "insurerId" : result.reason === "duplicate" ? "memberId" : result.reason === "coverage_ref_required" ? "coverageRef" : "patientId";
      const key =
        result.reason === "duplicate" ? "coverageDuplicate" : result.reason === "unknown_insurer" ? "insurerRequired" : result.reason === "coverage_ref_required" ? "coverageRefRequired" : "patientRequired";
      return { ok: false, error: "invalid", fieldErrors: { [field]: [key] } };
    }
    return { ok: true, id: result.coverage.id };
  },
  { name: "patients" },
);

/** The patient picker's search (audited like the Patients page's). */
export const searchPatientsAction = staffAction(
  frontDesk,
  z.string().max(100),
  async (query, ctx): Promise<ActionResult<{ patients: PatientSummary[] }>> => {
    if (!query.trim()) return { ok: true, patients: [] };
    return { ok: true, patients: await auditedSearch(ctx.db, ctx.caller, query, 8) };
  },
  { name: "patients" },
);

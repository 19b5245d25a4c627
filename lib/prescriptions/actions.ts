"use server";

import { z } from "zod";
import { staffAction, AREAS } from "@/lib/auth";
import type { ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { auditedSearch, type PatientSummary } from "@/lib/patients";
import { fileAppeal, submitPrescription, verifiedPrescriptionsFor, type PrescriptionView } from "@/lib/submissions";

/** Prescribers write prescriptions (docs/decisions/116); billing reads the verified ones on a pharmacy claim. */
const PRESCRIBERS = AREAS.prescriptions.roles;

/** The form's patient search (prescribers); audited. */
export const searchPatientsForPrescriptionAction = staffAction(
  PRESCRIBERS,
  z.string().max(100),
  async (query, ctx): Promise<ActionResult<{ patients: PatientSummary[] }>> => {
    if (!query.trim()) return { ok: true, patients: [] };
    return { ok: true, patients: await auditedSearch(ctx.db, ctx.caller, query, 8) };
  },
  { name: "prescriptions" },
);

/** Sends a prescription for verification: checked, stored and queued in one transaction. */
export const submitPrescriptionAction = staffAction(
  PRESCRIBERS,
  z.looseObject({}),
  async (input, ctx): Promise<ActionResult<{ id: string; status: string }>> => {
    const result = await submitPrescription({ db: ctx.db, providerOrgId: env().PROVIDER_ORG_ID, protocol: env().PLATFORM_PROTOCOL }, ctx.caller, input);
    return result.ok ? { ok: true, id: result.id, status: result.status } : result;
  },
  { name: "prescriptions" },
);

/**
 * A pharmacy claim's picker (billing): the patient's verified prescriptions, by the platform's
 * patient id (national ID). Reading them is a PHI access: audited.
 */
export const verifiedPrescriptionsAction = staffAction(
  AREAS.claims.roles,
  z.string().regex(/^[0-9]{10}$/),
  async (nationalId, ctx): Promise<ActionResult<{ prescriptions: PrescriptionView[] }>> => {
    const prescriptions = await verifiedPrescriptionsFor(ctx.db, nationalId);
    await ctx.audit({ action: "prescription.pick", outcome: "success", details: { count: prescriptions.length } });
    return { ok: true, prescriptions };
  },
  { name: "prescriptions" },
);

/**
 * Appeals a partly approved or refused prescription (guide 7.11, Table 40; docs/decisions/121): the
 * claims' appeal (lib/submissions/appeals.ts) on a prescription — its cut or refused lines, a
 * justification and documents, sent as a new prescriber request related to it.
 */
export const appealPrescriptionAction = staffAction(
  PRESCRIBERS,
  z.object({ claimId: z.string(), sequences: z.array(z.number()), justification: z.string(), attachmentIds: z.array(z.string()).default([]) }),
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await fileAppeal({ db: ctx.db, kinds: ["prescription"], protocol: env().PLATFORM_PROTOCOL }, ctx.caller, input);
    return result.ok ? { ok: true, id: result.id } : result.error === "invalid" ? { ok: false, error: "invalid", fieldErrors: result.fieldErrors } : { ok: false, error: result.error };
  },
  { name: "prescriptions" },
);

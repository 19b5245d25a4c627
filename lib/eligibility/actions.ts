"use server";

import { staffAction, AREAS } from "@/lib/auth";
import type { ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { userFacilityId } from "@/lib/facilities";
import { z } from "zod";
import { CODE_SYSTEMS, isCptCode, PRICE_LIST_SYSTEMS, priceListKeyOf } from "@/lib/fhir";
import { lookupCodes } from "@/lib/terminology";
import { eligibilityFormSchema } from "./schema";
import { estimateVisit, type VisitEstimate } from "./estimate";
import { runEligibilityCheck, type CheckOutcome } from "./service";
import { registerDiscoveredCoverage } from "./discovery";
import { authorizationRequirementsFor } from "./auth-requirements";
import { auditedChangeOfflineEligibility, changeOfflineEligibilitySchema, getPatient } from "@/lib/patients";
import { offlineEligibilityInUse } from "@/lib/submissions";

export type CheckActionResult = ActionResult<{ outcome: CheckOutcome }>;

/**
 * "Check eligibility": front desk only. The form's schema is parsed again here; every outcome of
 * the platform comes back as `outcome`, and a platform that is down as a failure — never a 500.
 */
export const checkEligibilityAction = staffAction(
  AREAS.eligibility.roles,
  eligibilityFormSchema,
  async (input, ctx): Promise<CheckActionResult> => {
    // The check goes out with the certificate of the facility the user works at (decision 049).
    const client = await getPlatformPort(await userFacilityId(ctx.db, ctx.caller.userId));
    return { ok: true, outcome: await runEligibilityCheck({ db: ctx.db, client, providerOrgId: env().PROVIDER_ORG_ID, protocol: env().PLATFORM_PROTOCOL }, ctx.caller, input) };
  },
  { name: "eligibility" },
);

const estimateSchema = z.object({
  checkId: z.uuid(),
  services: z
    .array(
      z.object({
        /** The code's list: a canonical URL or price-list key the contracts can name; empty = CPT. */
        system: z
          .string()
          .trim()
          .max(200)
          .default("")
          .refine((s) => s === "" || priceListKeyOf(s) !== undefined, "serviceUnknown"),
        code: z.string().trim().regex(/^\S{1,64}$/, "serviceUnknown"),
        quantity: z.coerce.number().int().min(1).max(99),
      }),
    )
    .min(1, "serviceRequired")
    .max(20),
});

/** Whether every planned service is a code of its list: CPT's curated list, else the code catalogue (decision 086). */
async function servicesKnown(db: Parameters<typeof lookupCodes>[0], services: readonly { system: string; code: string }[]): Promise<boolean> {
  for (const s of services) {
    const url = PRICE_LIST_SYSTEMS[priceListKeyOf(s.system || "cpt")!]!;
    if (url === CODE_SYSTEMS.cpt ? !isCptCode(s.code) : (await lookupCodes(db, url, [s.code])).length === 0) return false;
  }
  return true;
}

/** "Estimate for this visit" on an eligibility result (decision 091): front desk; audited by the wrapper's log, no write. */
export const estimateVisitAction = staffAction(
  AREAS.eligibility.roles,
  estimateSchema,
  async (input, ctx): Promise<ActionResult<{ estimate: VisitEstimate }>> => {
    if (!(await servicesKnown(ctx.db, input.services))) return { ok: false, error: "invalid", field: "services", fieldErrors: { services: ["serviceUnknown"] } };
    const estimate = await estimateVisit(ctx.db, input.checkId, input.services);
    if (!estimate) return { ok: false, error: "not_found" };
    await ctx.audit({ action: "eligibility.estimate", target: { type: "eligibility_check", id: input.checkId }, outcome: "success", details: { services: input.services.length } });
    return { ok: true, estimate };
  },
  { name: "eligibility" },
);

const registerSchema = z.object({
  checkId: z.uuid(),
  /** The Coverage id the exchange reported (a FHIR id). */
  coverageRef: z.string().trim().regex(/^[A-Za-z0-9\-.]{1,64}$/, "coverageUnknown"),
});

/**
 * "Register this coverage" on a discovery's answer: the coverage the insurer reported becomes the
 * patient's (lib/patients owns coverages), with its class and network for the contract's prices.
 */
export const registerDiscoveredCoverageAction = staffAction(
  AREAS.eligibility.roles,
  registerSchema,
  async (input, ctx): Promise<ActionResult<{ coverageId: string; patientId: string }>> => {
    const result = await registerDiscoveredCoverage(ctx.db, ctx.caller, input.checkId, input.coverageRef);
    if (!result.ok) return result.reason === "not_found" ? { ok: false, error: "not_found" } : { ok: false, error: "invalid", field: "coverageRef", fieldErrors: { coverageRef: [result.reason] } };
    return { ok: true, coverageId: result.coverageId, patientId: result.patientId };
  },
  { name: "eligibility" },
);

/**
 * Corrects or removes an offline eligibility the front desk recorded by mistake (decision 120):
 * audited by lib/patients (which owns the record), refused while a claim carries it (lib/submissions says).
 */
export const changeOfflineEligibilityAction = staffAction(
  AREAS.patients.roles,
  changeOfflineEligibilitySchema,
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const patient = await getPatient(ctx.db, input.patientId);
    if (!patient) return { ok: false, error: "not_found" };
    const result = await auditedChangeOfflineEligibility(ctx.db, ctx.caller, input, (row, db) => offlineEligibilityInUse(db, patient.nationalId, row.reference));
    if (result.ok) return { ok: true, id: result.row.id };
    if (result.reason === "not_found") return { ok: false, error: "not_found" };
    return { ok: false, error: "invalid", fieldErrors: { form: ["offlineInUse"] } };
  },
  { name: "eligibility" },
);

/**
 * The services the payer said need a prior authorization for this coverage (its newest
 * "auth-requirements" answer), for the authorization and claim forms to mark their lines. The
 * roles of those forms; the coverage must be the patient's. A reading of an answer already on file:
 * nothing is sent to the exchange.
 */
export const authorizationRequirementsAction = staffAction(
  [...new Set([...AREAS.authorizations.roles, ...AREAS.claims.roles])],
  z.object({ patientId: z.uuid(), coverageId: z.uuid() }),
  async (input, ctx): Promise<ActionResult<{ codes: string[]; checkedAt: string | null }>> => {
    const found = await authorizationRequirementsFor(ctx.db, input.patientId, input.coverageId);
    return { ok: true, codes: found?.codes ?? [], checkedAt: found?.checkedAt ?? null };
  },
  { name: "eligibility" },
);

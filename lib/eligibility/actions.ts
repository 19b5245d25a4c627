"use server";

import { staffAction, AREAS } from "@/lib/auth";
import type { ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { userFacilityId } from "@/lib/facilities";
import { z } from "zod";
import { isCptCode } from "@/lib/fhir";
import { eligibilityFormSchema } from "./schema";
import { estimateVisit, type VisitEstimate } from "./estimate";
import { runEligibilityCheck, type CheckOutcome } from "./service";

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
    return { ok: true, outcome: await runEligibilityCheck({ db: ctx.db, client, providerOrgId: env().PROVIDER_ORG_ID }, ctx.caller, input) };
  },
  { name: "eligibility" },
);

const estimateSchema = z.object({
  checkId: z.uuid(),
  services: z.array(z.object({ code: z.string().refine(isCptCode, "serviceUnknown"), quantity: z.coerce.number().int().min(1).max(99) })).min(1, "serviceRequired").max(20),
});

/** "Estimate for this visit" on an eligibility result (decision 091): front desk; audited by the wrapper's log, no write. */
export const estimateVisitAction = staffAction(
  AREAS.eligibility.roles,
  estimateSchema,
  async (input, ctx): Promise<ActionResult<{ estimate: VisitEstimate }>> => {
    const estimate = await estimateVisit(ctx.db, input.checkId, input.services);
    if (!estimate) return { ok: false, error: "not_found" };
    await ctx.audit({ action: "eligibility.estimate", target: { type: "eligibility_check", id: input.checkId }, outcome: "success", details: { services: input.services.length } });
    return { ok: true, estimate };
  },
  { name: "eligibility" },
);

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

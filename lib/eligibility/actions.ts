"use server";

import { staffAction, AREAS } from "@/lib/auth";
import type { ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { userFacilityId } from "@/lib/facilities";
import { eligibilityFormSchema } from "./schema";
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

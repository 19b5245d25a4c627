"use server";

import { z } from "zod";
import { AccessError, authorize } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { getPlatformClient } from "@/lib/platform";
import { callerOf } from "@/lib/patients/caller";
import { eligibilityFormSchema } from "./schema";
import { runEligibilityCheck, type CheckOutcome } from "./service";
import { log } from "@/lib/log";

export type CheckActionResult = CheckOutcome | { kind: "denied"; status: 401 | 403 };

/**
 * "Check eligibility": front desk only. The form's schema is parsed again here; every outcome —
 * including a platform that is down — comes back as a value, never as a 500.
 */
export async function checkEligibilityAction(input: unknown): Promise<CheckActionResult> {
  let user;
  try {
    user = await authorize(["front_desk"]);
  } catch (error) {
    if (error instanceof AccessError) return { kind: "denied", status: error.status };
    return { kind: "unavailable", reason: "error" };
  }
  const parsed = eligibilityFormSchema.safeParse(input);
  if (!parsed.success) return { kind: "invalid", fieldErrors: z.flattenError(parsed.error).fieldErrors };
  try {
    const db = await getDb();
    const client = await getPlatformClient();
    return await runEligibilityCheck({ db, client, providerOrgId: env().PROVIDER_ORG_ID }, await callerOf(user), parsed.data);
  } catch (error) {
    log("eligibility").error(`check failed: ${(error as Error).name}`);
    return { kind: "unavailable", reason: "error" };
  }
}

"use server";

import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { answerInformationRequest } from "./service";
import { answerSchema } from "./schema";

/** Staff answer an information request (billing: claims and authorizations; front desk: authorizations). */
export const answerInformationRequestAction = staffAction(
  AREAS.informationRequests.roles,
  answerSchema,
  async (input, ctx): Promise<ActionResult<{ status: string }>> => {
    const result = await answerInformationRequest({ db: ctx.db, port: getPlatformPort, providerOrgId: env().PROVIDER_ORG_ID }, ctx.caller, input);
    if (result.ok) return { ok: true, status: result.status };
    return { ok: false, error: result.error, ...(result.reason ? { detail: result.reason } : {}) };
  },
  { name: "information-requests" },
);

"use server";

import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { answerInformationRequest, informationRequestKind } from "./service";
import { answerSchema } from "./schema";

/**
 * Staff answer an information request (billing: claims and authorizations; front desk:
 * authorizations; prescribers: the requests about their prescriptions, docs/decisions/121).
 */
export const answerInformationRequestAction = staffAction(
  [...new Set([...AREAS.informationRequests.roles, ...AREAS.prescriptions.roles])],
  answerSchema,
  async (input, ctx): Promise<ActionResult<{ status: string }>> => {
    const kind = await informationRequestKind(ctx.db, input.id);
    const allowed: readonly string[] = kind === "prescription" ? AREAS.prescriptions.roles : AREAS.informationRequests.roles;
    if (!ctx.user.roles.some((r) => allowed.includes(r))) return { ok: false, error: kind ? "forbidden" : "not_found" };
    const result = await answerInformationRequest({ db: ctx.db, port: getPlatformPort, providerOrgId: env().PROVIDER_ORG_ID }, ctx.caller, input);
    if (result.ok) return { ok: true, status: result.status };
    return { ok: false, error: result.error, ...(result.reason ? { detail: result.reason } : {}) };
  },
  { name: "information-requests" },
);

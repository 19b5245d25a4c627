"use server";

import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { evidenceSchema } from "./schema";
import { sendEvidence, submissionKindOf } from "./service";

/**
 * Staff send the payer information about a claim (billing), an authorization (front desk and
 * billing) or a prescription (prescribers, docs/decisions/121) of their own accord (docs/decisions/115); the kind's rule is checked once the kind is known.
 */
export const sendEvidenceAction = staffAction(
  [...new Set([...AREAS.authorizations.roles, ...AREAS.claims.roles, ...AREAS.prescriptions.roles])],
  evidenceSchema,
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const kind = await submissionKindOf(ctx.db, input.submissionId);
    if (!kind) return { ok: false, error: "not_found" };
    const allowed: readonly string[] = kind === "claim" ? AREAS.claims.roles : kind === "prescription" ? AREAS.prescriptions.roles : AREAS.authorizations.roles;
    if (!ctx.user.roles.some((r) => allowed.includes(r))) return { ok: false, error: "forbidden" };
    const result = await sendEvidence({ db: ctx.db, port: getPlatformPort, providerOrgId: env().PROVIDER_ORG_ID }, ctx.caller, input);
    if (result.ok) return { ok: true, id: result.id };
    if (result.error === "invalid") return { ok: false, error: "invalid", fieldErrors: result.fieldErrors };
    return { ok: false, error: result.error, ...("reason" in result && result.reason ? { detail: result.reason } : {}) };
  },
  { name: "evidence", invalid: (error) => ({ ok: false, error: "invalid", fieldErrors: Object.fromEntries(error.issues.map((i) => [String(i.path[0] ?? "form"), [i.message]])) }) },
);

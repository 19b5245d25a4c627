"use server";

import { z } from "zod";
import { AREAS, staffAction, type ActionResult, type StaffActionContext } from "@/lib/auth";
import type { SubmissionKind } from "@/lib/db";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { cancelSchema } from "./schema";
import { cancelSubmission, checkSubmissionStatus, type StatusCheckResult } from "./service";

/** Claims are billing's; authorizations front desk's and billing's (AREAS). */
function kindsOf(ctx: StaffActionContext): SubmissionKind[] {
  const roles = ctx.user.roles as readonly string[];
  const kinds: SubmissionKind[] = [];
  if ((AREAS.authorizations.roles as readonly string[]).some((r) => roles.includes(r))) kinds.push("preauthorization");
  if ((AREAS.claims.roles as readonly string[]).some((r) => roles.includes(r))) kinds.push("claim");
  // Prescriptions (docs/decisions/116): cancelled and checked by their prescribers, as authorizations are.
  if ((AREAS.prescriptions.roles as readonly string[]).some((r) => roles.includes(r))) kinds.push("prescription");
  return kinds;
}

/** Who may cancel or check: whoever works authorizations, and the prescribers. */
const ROLES = [...AREAS.authorizations.roles, ...AREAS.prescriptions.roles];

const deps = async (ctx: StaffActionContext) => ({ db: ctx.db, port: getPlatformPort, providerOrgId: env().PROVIDER_ORG_ID });

/** Cancel (authorization, claim in process) or nullify (decided claim) with the exchange's reason code. */
export const cancelSubmissionAction = staffAction(
  ROLES,
  cancelSchema,
  async (input, ctx): Promise<ActionResult<{ done: boolean; status: string; reason?: string }>> => {
    const result = await cancelSubmission(await deps(ctx), ctx.caller, { ...input, kinds: kindsOf(ctx) });
    if (!result.ok) return { ok: false, error: result.error, ...(result.reason ? { detail: result.reason } : {}) };
    return { ok: true, done: result.done, status: result.status, ...(!result.done && result.reason ? { reason: result.reason } : {}) };
  },
  { name: "cancellation" },
);

/** Status check on demand: what the platform says now against what the portal believes. */
export const statusCheckAction = staffAction(
  ROLES,
  z.uuid(),
  async (id, ctx): Promise<ActionResult<{ check: StatusCheckResult }>> => {
    const result = await checkSubmissionStatus(await deps(ctx), ctx.caller, { id, kinds: kindsOf(ctx) });
    if (!result.ok) return { ok: false, error: result.error, ...(result.reason ? { detail: result.reason } : {}) };
    return { ok: true, check: result.check };
  },
  { name: "status-check" },
);

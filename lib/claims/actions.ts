"use server";

import { z } from "zod";
import { AccessError, authorize, type StaffUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { requestContext } from "@/lib/http/request-context";
import { getPlatformClient } from "@/lib/platform";
import { audit } from "@/lib/audit";
import { batchProgress, type BatchProgress } from "./batch";
import { reconcile, type ReconcileRow } from "./reconcile";
import { copyClaim, fixRejectedClaim, retryClaim, submitBatch, type BatchResult, type Caller, type ServiceDeps } from "./service";
import { log } from "@/lib/log";

/** Server actions of the claims area: every one checks the billing role itself. */
export type ClaimActionResult<T> = ({ ok: true } & T) | { ok: false; error: string };

async function callerOf(user: StaffUser): Promise<Caller> {
  const ctx = await requestContext();
  return { actor: { kind: "user", id: user.id, email: user.email, roles: user.roles }, userId: user.id, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) };
}
async function deps(): Promise<ServiceDeps> {
  return { db: await getDb(), providerOrgId: env().PROVIDER_ORG_ID };
}
function failure(error: unknown): { ok: false; error: string } {
  if (error instanceof AccessError) return { ok: false, error: error.status === 401 ? "unauthorized" : "forbidden" };
  log("claims").error(`action failed: ${(error as Error)?.name ?? "unknown"}`);
  return { ok: false, error: "failed" };
}

const id = z.uuid();

export async function copyClaimAction(claimId: unknown): Promise<ClaimActionResult<{ id: string }>> {
  try {
    const user = await authorize(["billing"]);
    const parsed = id.safeParse(claimId);
    if (!parsed.success) return { ok: false, error: "not_found" };
    return await copyClaim(await deps(), await callerOf(user), parsed.data);
  } catch (error) {
    return failure(error);
  }
}

export async function fixClaimAction(claimId: unknown): Promise<ClaimActionResult<{ id: string }>> {
  try {
    const user = await authorize(["billing"]);
    const parsed = id.safeParse(claimId);
    if (!parsed.success) return { ok: false, error: "not_found" };
    return await fixRejectedClaim(await deps(), await callerOf(user), parsed.data);
  } catch (error) {
    return failure(error);
  }
}

export async function retryClaimAction(claimId: unknown): Promise<ClaimActionResult<object>> {
  try {
    const user = await authorize(["billing"]);
    const parsed = id.safeParse(claimId);
    if (!parsed.success) return { ok: false, error: "not_found" };
    return await retryClaim(await deps(), await callerOf(user), parsed.data);
  } catch (error) {
    return failure(error);
  }
}

const batchInput = z.object({ ids: z.array(z.uuid()).min(1).max(500), confirmDuplicates: z.boolean().optional(), batchId: z.uuid().optional() });

export async function submitSelectedAction(input: unknown): Promise<ClaimActionResult<BatchResult>> {
  try {
    const user = await authorize(["billing"]);
    const parsed = batchInput.safeParse(input);
    if (!parsed.success) return { ok: false, error: "invalid" };
    const result = await submitBatch(await deps(), await callerOf(user), [...new Set(parsed.data.ids)], { confirmDuplicates: parsed.data.confirmDuplicates, batchId: parsed.data.batchId });
    return { ok: true, ...result };
  } catch (error) {
    return failure(error);
  }
}

export async function batchProgressAction(batchId: unknown): Promise<ClaimActionResult<BatchProgress>> {
  try {
    await authorize(["billing"]);
    const parsed = id.safeParse(batchId);
    if (!parsed.success) return { ok: false, error: "invalid" };
    return { ok: true, ...(await batchProgress(await getDb(), parsed.data)) };
  } catch (error) {
    return failure(error);
  }
}

const reconcileInput = z.object({ patient: z.string().regex(/^\d{10}$/, "patient"), since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "since") });

/** Endpoint 5 through the platform client, compared with the portal's records. Audited (ids only). */
export async function reconcileAction(input: unknown): Promise<ClaimActionResult<{ rows: ReconcileRow[] }>> {
  try {
    const user = await authorize(["billing"]);
    const parsed = reconcileInput.safeParse(input);
    if (!parsed.success) return { ok: false, error: "invalid" };
    const db = await getDb();
    const client = await getPlatformClient();
    const ctx = await requestContext();
    let bundle;
    try {
      bundle = await client.searchClaims({ patient: parsed.data.patient, createdOnOrAfter: parsed.data.since });
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, error: code && /^ERR-00\d$/.test(code) ? code : "platform" };
    }
    const claims = (bundle.data.entry ?? []).flatMap((e) => (e.resource ? [e.resource as unknown as Record<string, unknown>] : []));
    const rows = await reconcile(db, claims);
    await audit(db, {
      actor: { kind: "user", id: user.id, email: user.email, roles: user.roles },
      action: "claim.reconcile",
      target: { type: "platform_search", id: "claims" },
      outcome: "success",
      requestId: ctx.requestId,
      ip: ctx.ip,
      details: { found: rows.length, portalIds: rows.flatMap((r) => (r.portal ? [r.portal.id] : [])) },
    });
    return { ok: true, rows };
  } catch (error) {
    return failure(error);
  }
}

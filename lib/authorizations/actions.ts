"use server";

import { z } from "zod";
import { AccessError, authorize, type StaffUser } from "@/lib/auth/guards";
import { AREAS } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { requestContext } from "@/lib/http/request-context";
import { auditedSearch } from "@/lib/patients/service";
import type { PatientSummary } from "@/lib/patients/registry";
import type { SubmissionUse } from "./schema";
import { createClaimFromAuthorization, saveDraft, submitForm, type Caller, type FieldErrors, type ServiceDeps } from "./service";
import { log } from "@/lib/log";

export type ActionResult<T> = ({ ok: true } & T) | { ok: false; error: "unauthorized" | "forbidden" | "invalid" | "not_found" | "not_draft" | "not_approved" | "failed"; fieldErrors?: FieldErrors };

/** Who may act on each kind: authorizations — front desk and billing; claims — billing. */
const rolesFor = (use: SubmissionUse) => (use === "preauthorization" ? AREAS.authorizations.roles : AREAS.claims.roles);

async function callerOf(user: StaffUser): Promise<Caller> {
  const ctx = await requestContext();
  return { actor: { kind: "user", id: user.id, email: user.email, roles: user.roles }, userId: user.id, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) };
}

async function deps(): Promise<ServiceDeps> {
  return { db: await getDb(), providerOrgId: env().PROVIDER_ORG_ID };
}

function failure(error: unknown): ActionResult<never> {
  if (error instanceof AccessError) return { ok: false, error: error.status === 401 ? "unauthorized" : "forbidden" };
  // Never the message: it could carry request data. The name is enough to look further.
  log("authorizations").error(`action failed: ${(error as Error)?.name ?? "unknown"}`);
  return { ok: false, error: "failed" };
}

const useSchema = z.enum(["preauthorization", "claim"]);
const idSchema = z.uuid().optional();

/** The form's patient search (front desk and billing both fill these forms); audited. */
export async function searchPatientsForFormAction(query: unknown): Promise<ActionResult<{ patients: PatientSummary[] }>> {
  try {
    const user = await authorize([...new Set([...AREAS.authorizations.roles, ...AREAS.claims.roles])]);
    const q = z.string().max(100).safeParse(query);
    if (!q.success) return { ok: false, error: "invalid" };
    if (!q.data.trim()) return { ok: true, patients: [] };
    const caller = await callerOf(user);
    return { ok: true, patients: await auditedSearch((await deps()).db, { ...caller, requestId: caller.requestId ?? "" }, q.data, 8) };
  } catch (error) {
    return failure(error);
  }
}

export async function saveDraftAction(input: unknown, draftId?: unknown): Promise<ActionResult<{ id: string }>> {
  try {
    const use = useSchema.safeParse((input as { use?: unknown } | null)?.use);
    const id = idSchema.safeParse(draftId ?? undefined);
    if (!use.success || !id.success) return { ok: false, error: "invalid" };
    const user = await authorize(rolesFor(use.data));
    const result = await saveDraft(await deps(), await callerOf(user), input, id.data);
    return result.ok ? { ok: true, id: result.id } : result;
  } catch (error) {
    return failure(error);
  }
}

export async function submitAction(input: unknown, draftId?: unknown): Promise<ActionResult<{ id: string; status: string }>> {
  try {
    const use = useSchema.safeParse((input as { use?: unknown } | null)?.use);
    const id = idSchema.safeParse(draftId ?? undefined);
    if (!use.success || !id.success) return { ok: false, error: "invalid" };
    const user = await authorize(rolesFor(use.data));
    const result = await submitForm(await deps(), await callerOf(user), input, id.data);
    return result.ok ? { ok: true, id: result.id, status: result.status } : result;
  } catch (error) {
    return failure(error);
  }
}

/** Billing: a draft claim from an approved authorization (then opened at /claims/new?draft=…). */
export async function createClaimFromAuthorizationAction(authorizationId: unknown): Promise<ActionResult<{ id: string }>> {
  try {
    const user = await authorize(AREAS.claims.roles);
    const id = z.uuid().safeParse(authorizationId);
    if (!id.success) return { ok: false, error: "not_found" };
    const result = await createClaimFromAuthorization(await deps(), await callerOf(user), id.data);
    return result.ok ? { ok: true, id: result.id } : result;
  } catch (error) {
    return failure(error);
  }
}

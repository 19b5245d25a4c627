import { randomUUID } from "node:crypto";
import { audit, type Caller } from "@/lib/audit";
import { draftFormSchema, saveDraft, submitForm } from "@/lib/submissions";
import type { ServiceDeps } from "@/lib/submissions";
import type { Db } from "@/lib/db";
import { getClaim, retrySubmission } from "@/lib/submissions";
import { getPatient } from "@/lib/patients";
import { findDuplicateClaims, type ItemKey } from "./duplicates";
import { isUuid } from "@/lib/ids";

export type { ServiceDeps };

async function record(db: Db, caller: Caller, action: string, id: string, outcome: "success" | "failure", details?: Record<string, unknown>) {
  await audit(db, { actor: caller.actor, action, target: { type: "submission", id }, outcome, requestId: caller.requestId, ip: caller.ip, ...(details ? { details } : {}) });
}

async function loadClaim(db: Db, id: string) {
  if (!isUuid(id)) return undefined;
  return getClaim(db, id);
}

/**
 * A new draft prefilled from an earlier claim's form. It gets its own identifier when queued (the
 * identifier is fixed at queue time and a new row has none). Attachments are not copied (they
 * belong to the earlier claim); `replaces` links a fix of a rejected claim, or a copy of a
 * cancelled one, to it — and the new Claim then carries `related` (prior) to it.
 */
async function draftFrom(deps: ServiceDeps, caller: Caller, sourceId: string, mode: "copy" | "fix"): Promise<{ ok: true; id: string } | { ok: false; error: "not_found" | "not_rejected" | "invalid" }> {
  const source = await loadClaim(deps.db, sourceId);
  if (!source) return { ok: false, error: "not_found" };
  if (mode === "fix" && source.status !== "rejected") return { ok: false, error: "not_rejected" };
  const values = draftFormSchema.safeParse({ ...(source.form ?? {}), use: "claim" });
  if (!values.success) return { ok: false, error: "invalid" };
  // A fix of a rejected claim, or the copy of a cancelled one, replaces it: sent with `related` (prior).
  const replaces = mode === "fix" || source.status === "cancelled";
  const links = { ...(replaces ? { replacesId: source.id } : {}), ...(source.authorizationId ? { authorizationId: source.authorizationId } : {}) };
  const saved = await saveDraft(deps, caller, { ...values.data, attachmentIds: [] }, undefined, { links });
  if (!saved.ok) return { ok: false, error: "invalid" };
  await record(deps.db, caller, mode === "fix" ? "claim.fix" : "claim.copy", saved.id, "success", { sourceId: source.id });
  return { ok: true, id: saved.id };
}

export const copyClaim = (deps: ServiceDeps, caller: Caller, id: string) => draftFrom(deps, caller, id, "copy");
export const fixRejectedClaim = (deps: ServiceDeps, caller: Caller, id: string) => draftFrom(deps, caller, id, "fix");

/** "Retry" of a failed claim: the same submission and identifier back in the outbox. */
export async function retryClaim(deps: ServiceDeps, caller: Caller, id: string): Promise<{ ok: true } | { ok: false; error: "not_found" | "not_failed" }> {
  const row = await loadClaim(deps.db, id);
  if (!row) return { ok: false, error: "not_found" };
  if (row.status !== "failed") return { ok: false, error: "not_failed" };
  await retrySubmission({ db: deps.db, clock: deps.clock }, id, "user");
  await record(deps.db, caller, "claim.retry", id, "success");
  return { ok: true };
}

/** The item keys of a draft's form (valid lines only). */
function formItemKeys(form: Record<string, unknown> | null): ItemKey[] {
  const parsed = draftFormSchema.safeParse({ ...(form ?? {}), use: "claim" });
  if (!parsed.success) return [];
  return parsed.data.items.filter((i) => i.code && i.servicedDate).map((i) => ({ code: i.code, servicedDate: i.servicedDate, quantity: i.quantity || "1" }));
}

/** Earlier claims that look like the same one as this draft (same patient, dates, items). */
export async function draftDuplicates(db: Db, id: string) {
  const row = await loadClaim(db, id);
  if (!row) return [];
  const keys = formItemKeys(row.form);
  return findDuplicateClaims(db, { nationalId: row.patientNationalId, items: keys, excludeId: row.id });
}

export interface BatchResult {
  batchId: string;
  submitted: string[];
  /** Drafts the form's checks refused (fix them one by one). */
  invalid: string[];
  /** Drafts that look already claimed; sent only with `confirmDuplicates`. */
  duplicates: string[];
}

/**
 * "Submit selected": every draft is checked with the same schema as the form (submitForm parses
 * it again), queued, and tagged with the batch id. The outbox worker and the platform's rate
 * limiter pace the sends; progress is read from the database (batch.ts).
 */
export async function submitBatch(deps: ServiceDeps, caller: Caller, ids: readonly string[], options: { confirmDuplicates?: boolean; batchId?: string } = {}): Promise<BatchResult> {
  const batchId = options.batchId ?? randomUUID();
  const result: BatchResult = { batchId, submitted: [], invalid: [], duplicates: [] };
  for (const id of ids) {
    const row = await loadClaim(deps.db, id);
    if (!row || row.status !== "draft") {
      result.invalid.push(id);
      continue;
    }
    if (!options.confirmDuplicates && (await draftDuplicates(deps.db, id)).length) {
      result.duplicates.push(id);
      continue;
    }
    const patient = await getPatient(deps.db, String((row.form ?? {}).patientId ?? ""));
    const form = { ...(row.form ?? {}), use: "claim" };
    // "Submit selected" answers the scrubber's warnings for the batch (they go on each timeline); a
    // draft it finds errors in stays a draft and is listed as invalid (docs/decisions/090).
    const submitted = patient ? await submitForm(deps, caller, form, id, { batchId, scrub: { acknowledgeWarnings: true } }) : { ok: false as const };
    if (!submitted.ok) {
      result.invalid.push(id);
      continue;
    }
    result.submitted.push(id);
  }
  await audit(deps.db, {
    actor: caller.actor,
    action: "claim.batch_submit",
    target: { type: "batch", id: batchId },
    outcome: "success",
    requestId: caller.requestId,
    ip: caller.ip,
    details: { submitted: result.submitted, invalid: result.invalid.length, duplicates: result.duplicates.length },
  });
  return result;
}

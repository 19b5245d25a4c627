import { and, desc, eq } from "drizzle-orm";
import { audit, type AuditActor } from "@/lib/audit";
import { attachableIds, attachmentsWithData, checkSet, setSubmissionAttachments, type LimitProblem } from "@/lib/attachments";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import { claimTotalMinor, createDraft, queue, type Submission } from "@/lib/exchange";
import { buildClaim, isCptCode, isIcd10amCode, type ClaimInput } from "@/lib/fhir";
import { getCoverage, getPatient } from "@/lib/patients";
import type { CoverageView, Patient } from "@/lib/patients";
import { lineTotalMinor, parseAmountMinor, parseQuantity } from "./money";
import { draftFormSchema, submissionFormSchema, type DraftFormValues, type SubmissionFormValues, type SubmissionUse } from "./schema";

export interface ServiceDeps {
  db: Db;
  /** The clinic's Organization id (PROVIDER_ORG_ID). */
  providerOrgId: string;
  clock?: () => Date;
}

/** Who acts, for audit entries (never patient data). */
export interface Caller {
  actor: AuditActor;
  userId: string;
  requestId?: string;
  ip?: string;
}

export type FieldErrors = Partial<Record<string, string[]>>;

export type SaveResult =
  | { ok: true; id: string; status: Submission["status"] }
  | { ok: false; error: "invalid"; fieldErrors: FieldErrors }
  | { ok: false; error: "not_found" | "not_draft" };

const now = (deps: ServiceDeps) => (deps.clock ?? (() => new Date()))();

function flatten(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

const LIMIT_MESSAGES: Record<LimitProblem, string> = {
  tooLarge: "fileTooLarge",
  tooMany: "tooManyFiles",
  totalTooLarge: "totalTooLarge",
  empty: "fileEmpty",
};

interface Resolved {
  patient: Patient;
  coverage?: CoverageView;
}

/** The patient and (when given) the coverage, which must be this patient's. */
async function resolvePatient(db: Db, patientId: string, coverageId: string | undefined): Promise<({ ok: true } & Resolved) | { ok: false; fieldErrors: FieldErrors }> {
  const patient = await getPatient(db, patientId);
  if (!patient) return { ok: false, fieldErrors: { patientId: ["patientRequired"] } };
  if (!coverageId) return { ok: true, patient };
  const coverage = await getCoverage(db, coverageId);
  if (!coverage || coverage.patientId !== patient.id) return { ok: false, fieldErrors: { coverageId: ["coverageRequired"] } };
  return { ok: true, patient, coverage };
}

async function checkAttachments(db: Db, ids: readonly string[], userId: string, submissionId?: string): Promise<FieldErrors | undefined> {
  const { ok, rows } = await attachableIds(db, ids, userId, submissionId);
  if (!ok) return { attachmentIds: ["attachmentUnknown"] };
  const problem = checkSet(rows.map((r) => r.size));
  return problem ? { attachmentIds: [LIMIT_MESSAGES[problem]] } : undefined;
}

/** The Claim of a complete form, with the attachments' bytes. */
async function claimOf(deps: ServiceDeps, values: SubmissionFormValues, resolved: Required<Resolved>, prior?: ClaimInput["prior"]): Promise<Record<string, unknown>> {
  const files = await attachmentsWithData(deps.db, values.attachmentIds);
  const input: ClaimInput = {
    use: values.use,
    nationalId: resolved.patient.nationalId,
    coverageRef: resolved.coverage.coverageRef,
    providerOrgId: deps.providerOrgId,
    created: now(deps),
    diagnoses: values.diagnoses,
    procedures: values.procedures,
    items: values.items.map((item) => ({
      code: item.code,
      servicedDate: item.servicedDate,
      quantity: parseQuantity(item.quantity)!,
      unitPriceMinor: parseAmountMinor(item.unitPrice)!,
    })),
    attachments: files.map((f) => ({ contentType: f.contentType, data: f.data, title: f.fileName, creation: f.createdAt })),
    preAuthRefs: values.use === "claim" && values.preAuthRef ? [values.preAuthRef] : [],
    ...(prior ? { prior } : {}),
  };
  return { ...buildClaim(input) };
}

/**
 * The Claim of a draft as far as it is filled in (valid codes and lines only, no attachment
 * bytes): enough for totals in lists. The full Claim is built again when the draft is submitted.
 */
function draftClaimOf(deps: ServiceDeps, values: DraftFormValues, resolved: Resolved): Record<string, unknown> {
  const items = values.items.flatMap((item) => {
    const quantity = parseQuantity(item.quantity);
    const unitPriceMinor = parseAmountMinor(item.unitPrice);
    return isCptCode(item.code) && quantity !== undefined && unitPriceMinor !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(item.servicedDate)
      ? [{ code: item.code, servicedDate: item.servicedDate, quantity, unitPriceMinor }]
      : [];
  });
  const claim: Record<string, unknown> = { ...buildClaim({
    use: values.use,
    nationalId: resolved.patient.nationalId,
    coverageRef: resolved.coverage?.coverageRef ?? "",
    providerOrgId: deps.providerOrgId,
    created: now(deps),
    diagnoses: values.diagnoses.filter(isIcd10amCode),
    procedures: values.procedures.filter(isCptCode),
    items,
    preAuthRefs: values.use === "claim" && values.preAuthRef ? [values.preAuthRef] : [],
  }) };
  if (!resolved.coverage) delete claim.insurance;
  return claim;
}

/** The claim a resubmission replaces, as `Claim.related` names it (issue 18 item 7). */
async function priorOf(db: Db, id: string): Promise<ClaimInput["prior"]> {
  const [row] = await db
    .select({ platformId: submissions.platformId, system: submissions.identifierSystem, value: submissions.identifierValue })
    .from(submissions)
    .where(eq(submissions.id, id));
  if (!row || (!row.platformId && !row.value)) return undefined;
  return { ...(row.platformId ? { platformId: row.platformId } : {}), ...(row.value ? { identifier: { ...(row.system ? { system: row.system } : {}), value: row.value } } : {}) };
}

async function loadDraft(db: Db, id: string, use: SubmissionUse): Promise<Submission | "not_found" | "not_draft"> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return "not_found";
  const [row] = await db.select().from(submissions).where(and(eq(submissions.id, id), eq(submissions.kind, use)));
  if (!row) return "not_found";
  return row.status === "draft" ? row : "not_draft";
}

/** Rewrites a draft's form, Claim and totals (only while it is still a draft). */
async function updateDraftRow(db: Db, id: string, patch: { form: Record<string, unknown>; claim: Record<string, unknown>; patientId: string; insurerId: string | null }, at: Date) {
  const money = claimTotalMinor(patch.claim);
  const [row] = await db
    .update(submissions)
    .set({ ...patch, totalMinor: money?.totalMinor ?? null, currency: money?.currency ?? null, updatedAt: at })
    .where(and(eq(submissions.id, id), eq(submissions.status, "draft")))
    .returning();
  return row;
}

async function record(db: Db, caller: Caller, action: string, id: string | undefined, outcome: "success" | "failure", details?: Record<string, unknown>) {
  await audit(db, {
    actor: caller.actor,
    action,
    target: { type: "submission", id: id ?? "new" },
    outcome,
    requestId: caller.requestId,
    ip: caller.ip,
    ...(details ? { details } : {}),
  });
}

const kindLabel = (use: SubmissionUse) => (use === "preauthorization" ? "authorization" : "claim");

/** Saves the form as a draft (new, or the draft being edited). Attachments are linked to it. */
export async function saveDraft(deps: ServiceDeps, caller: Caller, input: unknown, draftId?: string): Promise<SaveResult> {
  const parsed = draftFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid", fieldErrors: flatten(parsed.error.issues) };
  const values = parsed.data;
  const resolved = await resolvePatient(deps.db, values.patientId, values.coverageId || undefined);
  if (!resolved.ok) return { ok: false, error: "invalid", fieldErrors: resolved.fieldErrors };
  const existing = draftId ? await loadDraft(deps.db, draftId, values.use) : undefined;
  if (typeof existing === "string") return { ok: false, error: existing };
  const attachmentErrors = await checkAttachments(deps.db, values.attachmentIds, caller.userId, existing?.id);
  if (attachmentErrors) return { ok: false, error: "invalid", fieldErrors: attachmentErrors };

  const claim = draftClaimOf(deps, values, resolved);
  const form = { ...values };
  const at = now(deps);
  let id: string;
  if (existing) {
    const row = await deps.db.transaction(async (tx) => {
      const updated = await updateDraftRow(tx, existing.id, { form, claim, patientId: resolved.patient.nationalId, insurerId: resolved.coverage?.insurerId ?? null }, at);
      if (updated) await setSubmissionAttachments(tx, existing.id, values.attachmentIds);
      return updated;
    });
    if (!row) return { ok: false, error: "not_draft" };
    id = row.id;
  } else {
    const row = await createDraft(
      { db: deps.db, clock: deps.clock },
      { kind: values.use, patientId: resolved.patient.nationalId, insurerId: resolved.coverage?.insurerId, claim, createdBy: caller.userId, channel: "ui" },
    );
    await deps.db.transaction(async (tx) => {
      await tx.update(submissions).set({ form }).where(eq(submissions.id, row.id));
      await setSubmissionAttachments(tx, row.id, values.attachmentIds);
    });
    id = row.id;
  }
  await record(deps.db, caller, `${kindLabel(values.use)}.draft_save`, id, "success", { patientId: resolved.patient.id, attachments: values.attachmentIds.length });
  return { ok: true, id, status: "draft" };
}

/**
 * Submits the form: parsed again with the form's schema, patient/coverage/attachments checked,
 * the Claim built with the attachments' bytes, stored (the draft updated, or a new one) and handed
 * to the outbox, which sends it to the platform.
 */
export async function submitForm(deps: ServiceDeps, caller: Caller, input: unknown, draftId?: string): Promise<SaveResult> {
  const parsed = submissionFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid", fieldErrors: flatten(parsed.error.issues) };
  const values = parsed.data;
  const resolved = await resolvePatient(deps.db, values.patientId, values.coverageId);
  if (!resolved.ok) return { ok: false, error: "invalid", fieldErrors: resolved.fieldErrors };
  if (!resolved.coverage) return { ok: false, error: "invalid", fieldErrors: { coverageId: ["coverageRequired"] } };
  const coverage = resolved.coverage;
  const existing = draftId ? await loadDraft(deps.db, draftId, values.use) : undefined;
  if (typeof existing === "string") return { ok: false, error: existing };
  const attachmentErrors = await checkAttachments(deps.db, values.attachmentIds, caller.userId, existing?.id);
  if (attachmentErrors) return { ok: false, error: "invalid", fieldErrors: attachmentErrors };

  const claim = await claimOf(deps, values, { patient: resolved.patient, coverage }, existing?.replacesId ? await priorOf(deps.db, existing.replacesId) : undefined);
  const form = { ...values };
  const at = now(deps);
  let id: string;
  if (existing) {
    const row = await deps.db.transaction(async (tx) => {
      const updated = await updateDraftRow(tx, existing.id, { form, claim, patientId: resolved.patient.nationalId, insurerId: coverage.insurerId }, at);
      if (updated) await setSubmissionAttachments(tx, existing.id, values.attachmentIds);
      return updated;
    });
    if (!row) return { ok: false, error: "not_draft" };
    id = row.id;
  } else {
    const row = await createDraft(
      { db: deps.db, clock: deps.clock },
      {
        kind: values.use,
        patientId: resolved.patient.nationalId,
        insurerId: coverage.insurerId,
        claim,
        createdBy: caller.userId,
        channel: "ui",
      },
    );
    await deps.db.transaction(async (tx) => {
      await tx.update(submissions).set({ form }).where(eq(submissions.id, row.id));
      await setSubmissionAttachments(tx, row.id, values.attachmentIds);
    });
    id = row.id;
  }
  const queued = await queue({ db: deps.db, clock: deps.clock }, id, "user");
  await record(deps.db, caller, `${kindLabel(values.use)}.submit`, id, "success", {
    patientId: resolved.patient.id,
    items: values.items.length,
    attachments: values.attachmentIds.length,
    totalMinor: values.items.reduce((sum, i) => sum + (lineTotalMinor(i.quantity, i.unitPrice) ?? 0), 0),
  });
  return { ok: true, id, status: queued.status };
}

export type ClaimFromAuthorizationResult =
  | { ok: true; id: string; reused: boolean }
  | { ok: false; error: "not_found" | "not_approved" };

/**
 * A draft claim made from a decided (approved or partly approved) prior authorization: the same
 * patient, coverage, diagnoses, procedures and items, the authorization's preAuthRef, and
 * `authorization_id` linking the two. An existing draft for the same authorization is reopened.
 */
export async function createClaimFromAuthorization(deps: ServiceDeps, caller: Caller, authorizationId: string): Promise<ClaimFromAuthorizationResult> {
  if (!/^[0-9a-f-]{36}$/i.test(authorizationId)) return { ok: false, error: "not_found" };
  const [auth] = await deps.db
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, authorizationId), eq(submissions.kind, "preauthorization")));
  if (!auth) return { ok: false, error: "not_found" };
  const preAuthRef = typeof auth.response?.preAuthRef === "string" ? auth.response.preAuthRef : undefined;
  if ((auth.status !== "complete" && auth.status !== "partial") || !preAuthRef) return { ok: false, error: "not_approved" };

  const [existing] = await deps.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.authorizationId, auth.id), eq(submissions.kind, "claim"), eq(submissions.status, "draft")))
    .orderBy(desc(submissions.createdAt))
    .limit(1);
  if (existing) {
    await record(deps.db, caller, "claim.create_from_authorization", existing.id, "success", { authorizationId: auth.id, reused: true });
    return { ok: true, id: existing.id, reused: true };
  }

  const source = draftFormSchema.safeParse({ ...(auth.form ?? {}), use: "claim" });
  if (!source.success) return { ok: false, error: "not_found" };
  const values: DraftFormValues = { ...source.data, use: "claim", attachmentIds: [], preAuthRef };
  const resolved = await resolvePatient(deps.db, values.patientId, values.coverageId || undefined);
  if (!resolved.ok) return { ok: false, error: "not_found" };
  const claim = draftClaimOf(deps, values, resolved);
  const row = await createDraft(
    { db: deps.db, clock: deps.clock },
    {
      kind: "claim",
      patientId: auth.patientId,
      insurerId: auth.insurerId ?? undefined,
      claim,
      createdBy: caller.userId,
      channel: "ui",
      authorizationId: auth.id,
    },
  );
  await deps.db.update(submissions).set({ form: { ...values } }).where(eq(submissions.id, row.id));
  await record(deps.db, caller, "claim.create_from_authorization", row.id, "success", { authorizationId: auth.id });
  return { ok: true, id: row.id, reused: false };
}

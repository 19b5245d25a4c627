import { z } from "zod";
import { readJsonObject } from "@/lib/api";
import { listPractitioners } from "@/lib/facilities";
import { findPatientByNationalId, listCoverages } from "@/lib/patients";
import { AppError, issuePath, jsonResponse } from "@/lib/errors";
import { storeAttachment } from "@/lib/attachments";
import { fileAppeal, getPrescription, getSubmission, prescriptionLineSchema, submitPrescription } from "@/lib/submissions";
import { isUuid } from "@/lib/ids";
import type { CallContext } from "./api";
import { EXCHANGE_API_CHANNEL, cancelClaim, createdByOf, statusCheck } from "./claims";
import { sendEvidenceApi } from "./changes";

/**
 * POST /api/exchange/prescriptions: the clinic's own systems send a prescription for verification
 * (guide 7.11, docs/decisions/116) by what they know — the patient's national ID, the coverage's
 * platform id, the prescriber's licence — and get 202 with its id; GET …/{id} reads the answer
 * (decision per medicine, approved refills, the payer's reference). A bad body is a 422 naming
 * each element and saying why; nothing is stored.
 */
export const PrescriptionBodySchema = z.strictObject({
  nationalId: z.string().regex(/^[12][0-9]{9}$/, "a national ID or Iqama: 10 digits"),
  coverage: z.string().min(1).max(64).meta({ description: "The coverage's platform id (e.g. cov-1000000001)." }),
  prescriberLicense: z.string().min(1).max(64),
  diagnoses: z.array(z.string().min(1).max(16)).min(1).max(10),
  lines: z.array(prescriptionLineSchema).min(1).max(10),
});

/** What each refusal of the intake means, in words (the page says the same in English and Arabic). */
const WORDS: Record<string, string> = {
  required: "required",
  tooLong: "too long",
  number: "a number",
  wholeNumber: "a whole number",
  tooSmall: "too small",
  tooLarge: "too large",
  tooMany: "too many",
  coverageRequired: "not a coverage of this patient",
  prescriberUnknown: "not an active practitioner of the clinic",
  diagnosisUnknown: "not an ICD-10-AM code of the catalogue",
  medicineUnknown: "not in the catalogue under the chosen kind of code (scientific code or GTIN)",
  absenceReasonRequired: "a medicine named by GTIN needs the reason it has no scientific code",
  maritalStatusMissing: "the patient's record has no marital status; the exchange refuses it",
  coverageClassMissing: "the coverage has no class; the exchange refuses it",
  exchangeRule: "the request built from it breaks a rule of the exchange; nothing was sent (quote the request id to the clinic)",
};

const unprocessable = (fields: { path: string; message: string }[]) =>
  new AppError("unprocessable", "The prescription cannot be sent as it is.", { reason: "invalid_prescription", fields: fields.slice(0, 20) });

export async function submitPrescriptionApi(ctx: CallContext, request: Request): Promise<Response> {
  const body = await readJsonObject(request, { maxBytes: ctx.deps.config.maxBodyBytes });
  const parsed = PrescriptionBodySchema.safeParse(body);
  if (!parsed.success) throw unprocessable(parsed.error.issues.map((i) => ({ path: issuePath("", i.path), message: WORDS[i.message] ?? i.message })));
  const input = parsed.data;
  const db = ctx.db;
  const patient = await findPatientByNationalId(db, input.nationalId);
  if (!patient) throw unprocessable([{ path: "nationalId", message: "no patient with this national ID is registered" }]);
  const coverage = (await listCoverages(db, patient.id)).find((c) => c.coverageRef === input.coverage);
  if (!coverage) throw unprocessable([{ path: "coverage", message: WORDS.coverageRequired! }]);
  const prescriber = (await listPractitioners(db, null)).find((p) => p.license === input.prescriberLicense && p.active);
  if (!prescriber) throw unprocessable([{ path: "prescriberLicense", message: WORDS.prescriberUnknown! }]);
  const result = await submitPrescription(
    // The intake writes this call's audit entry in the submission's transaction (the kernel writes none for the success).
    { db, providerOrgId: ctx.deps.config.providerOrgId, protocol: ctx.deps.config.protocol, clock: () => ctx.now, auditAction: ctx.audit.action },
    // Named by the calling organization, so that only it reads, cancels or appeals it (docs/decisions/121).
    { actor: ctx.actor, userId: createdByOf(ctx.client.clientId), requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) },
    { patientId: patient.id, coverageId: coverage.id, prescriberId: prescriber.id, diagnoses: input.diagnoses, lines: input.lines },
    "exchange-api",
  );
  if (!result.ok) {
    const rename: Record<string, string> = { patientId: "nationalId", coverageId: "coverage", prescriberId: "prescriberLicense" };
    throw unprocessable(
      Object.entries(result.ok === false && result.error === "invalid" ? result.fieldErrors : {}).flatMap(([path, keys]) =>
        (keys ?? []).map((k) => ({ path: rename[path] ?? path.replace(/\.(\d+)/g, "[$1]"), message: WORDS[k] ?? k })),
      ),
    );
  }
  ctx.audit.target = { type: "submission", id: result.id };
  ctx.audit.recorded = true;
  return jsonResponse({ id: result.id, status: result.status }, 202, { location: `/api/exchange/prescriptions/${result.id}` });
}

/** The calling organization's own prescription (any other id, another kind or another client's: 404). */
async function ownPrescription(ctx: CallContext, id: string): Promise<string> {
  const row = isUuid(id) ? await getSubmission(ctx.db, id) : undefined;
  if (!row || row.kind !== "prescription" || row.channel !== EXCHANGE_API_CHANNEL || row.createdBy !== createdByOf(ctx.client.clientId)) {
    throw new AppError("not_found", "No prescription with this id.", { reason: "unknown_submission" });
  }
  ctx.audit.target = { type: "submission", id: row.id };
  return row.id;
}

export async function prescriptionStatusApi(ctx: CallContext, id: string): Promise<Response> {
  const view = await getPrescription(ctx.db, await ownPrescription(ctx, id));
  return jsonResponse(view, 200);
}

/**
 * POST /api/exchange/prescriptions/{id}/cancel and …/status-check: the claims' cancel and status
 * check (decision 046) on a prescription — a cancel Task with the exchange's reason, a status check
 * with the platform — answering the status Parameters.
 */
export async function cancelPrescriptionApi(ctx: CallContext, request: Request, id: string): Promise<Response> {
  return cancelClaim(ctx, request, await ownPrescription(ctx, id));
}

export async function prescriptionStatusCheckApi(ctx: CallContext, id: string): Promise<Response> {
  return statusCheck(ctx, await ownPrescription(ctx, id));
}

/** POST /api/exchange/prescriptions/{id}/evidence: information sent unasked about it (decision 115), as for a claim. */
export async function prescriptionEvidenceApi(ctx: CallContext, request: Request, id: string): Promise<Response> {
  return sendEvidenceApi(ctx, request, await ownPrescription(ctx, id));
}

/** The body of `POST /prescriptions/{id}/appeal`: the lines, the justification, the documents (base64). */
export const PrescriptionAppealSchema = z.strictObject({
  sequences: z.array(z.number().int().positive()).min(1).max(10).meta({ description: "The refused or cut medicines (their line numbers) appealed." }),
  justification: z.string().min(10).max(4000).meta({ description: "Why the patient needs them as prescribed (10–4000 characters)." }),
  attachments: z
    .array(z.strictObject({ title: z.string().min(1).max(200), data: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, "base64") }))
    .max(5)
    .default([])
    .meta({ description: "Supporting documents: PDF, JPEG or PNG, base64." }),
});

const APPEAL_WORDS: Record<string, string> = {
  lineNotAppealable: "not a refused or cut medicine of this prescription",
  justificationShort: "at least 10 characters",
  justificationLong: "at most 4000 characters",
  linesRequired: "at least one line",
};

/**
 * POST /api/exchange/prescriptions/{id}/appeal — the calling client's partly approved or refused
 * prescription appealed (guide 7.11, Table 40; docs/decisions/121): the claims' appeal intake, a new
 * prescriber request related to it (prior) with the justification and documents as supporting
 * information. 202 with the appeal's id; 409 when it is not appealable or already under appeal;
 * 422 naming the element.
 */
export async function appealPrescriptionApi(ctx: CallContext, request: Request, id: string): Promise<Response> {
  const prescriptionId = await ownPrescription(ctx, id);
  const body = await readJsonObject(request, { maxBytes: ctx.deps.config.maxBodyBytes });
  const parsed = PrescriptionAppealSchema.safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ path: issuePath("", i.path), message: i.message }));
    throw new AppError("unprocessable", "The appeal cannot be sent as it is.", { reason: "invalid_appeal", fields: fields.slice(0, 20) });
  }
  const userId = createdByOf(ctx.client.clientId);
  const attachmentIds: string[] = [];
  for (const [i, a] of parsed.data.attachments.entries()) {
    const stored = await storeAttachment(ctx.db, { bytes: new Uint8Array(Buffer.from(a.data, "base64")), fileName: a.title, uploadedBy: userId });
    if (!stored.ok) throw new AppError("unprocessable", "A document was not taken.", { reason: "invalid_appeal", fields: [{ path: `attachments[${i}].data`, message: `not taken (${stored.reason}): PDF, JPEG or PNG up to 10 MB` }] });
    attachmentIds.push(stored.attachment.id);
  }
  const result = await fileAppeal(
    // The intake writes this call's audit entry in the appeal's transaction (the kernel writes none for the success).
    { db: ctx.db, clock: () => ctx.now, kinds: ["prescription"], protocol: ctx.deps.config.protocol, auditAction: ctx.audit.action },
    { actor: ctx.actor, userId, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) },
    { claimId: prescriptionId, sequences: parsed.data.sequences, justification: parsed.data.justification, attachmentIds },
    "exchange-api",
  );
  if (!result.ok) {
    if (result.error === "invalid") {
      const fields = Object.entries(result.fieldErrors).flatMap(([path, keys]) => (keys ?? []).map((k) => ({ path: path === "attachmentIds" ? "attachments" : path, message: APPEAL_WORDS[k] ?? k })));
      throw new AppError("unprocessable", "The appeal cannot be sent as it is.", { reason: "invalid_appeal", fields });
    }
    if (result.error === "not_found") throw new AppError("not_found", "No prescription with this id.", { reason: "unknown_submission" });
    throw new AppError("conflict", result.error === "already_appealed" ? "An appeal of this prescription is still with the payer." : "Only a partly approved or refused prescription can be appealed.", { reason: result.error });
  }
  ctx.audit.target = { type: "submission", id: result.id };
  ctx.audit.recorded = true;
  return jsonResponse({ id: result.id, status: "queued" }, 202, { location: `/api/exchange/prescriptions/${result.id}` });
}

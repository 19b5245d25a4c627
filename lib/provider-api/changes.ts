import { z } from "zod";
import { readJsonObject } from "@/lib/api";
import type { Caller } from "@/lib/audit";
import { storeAttachment } from "@/lib/attachments";
import { AppError, fhirResponse } from "@/lib/errors";
import { sendEvidence } from "@/lib/evidence";
import { submitApiClaim } from "@/lib/submissions";
import { authorizationVersions, changeableVersion, getSubmission, type Submission } from "@/lib/submissions";
import { isUuid } from "@/lib/ids";
import type { CallContext } from "./api";
import { EXCHANGE_API_CHANNEL, acknowledgement, createdByOf, intakeAuditOf, statusPath } from "./claims";

type Json = Record<string, unknown>;

/** The body of `POST /claims/{id}/evidence` (what the OpenAPI document shows; the handler names each misfit). */
export const EvidenceParametersSchema = z.object({
  resourceType: z.literal("Parameters"),
  parameter: z
    .array(
      z.union([
        z.object({ name: z.literal("text"), valueString: z.string().max(4000) }),
        z.object({ name: z.literal("sequence"), valuePositiveInt: z.number().int().positive() }),
        z.object({ name: z.literal("attachment"), valueAttachment: z.object({ contentType: z.string().optional(), title: z.string().optional(), data: z.string() }) }),
      ]),
    )
    .min(1),
});

/** The answer of `POST /claims/{id}/evidence`: what was sent. */
export const EvidenceSentSchema = z.object({
  resourceType: z.literal("Parameters"),
  parameter: z.tuple([
    z.object({ name: z.literal("evidence"), valueString: z.uuid() }),
    z.object({ name: z.literal("communication"), valueString: z.string() }),
    z.object({ name: z.literal("status"), valueCode: z.literal("sent") }),
  ]),
});
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A 422 naming the element (FHIRPath) and what it must be. */
function unprocessable(path: string, message: string, reason: string): AppError {
  return new AppError("unprocessable", `${path}: ${message}`, { reason, fields: [{ path, message }] });
}

async function ownSubmission(ctx: CallContext, id: string): Promise<Submission> {
  const submission = isUuid(id) ? await getSubmission(ctx.db, id) : undefined;
  if (!submission || submission.channel !== EXCHANGE_API_CHANNEL || submission.createdBy !== createdByOf(ctx.client.clientId)) {
    throw new AppError("not_found", "No such submission.", { reason: "unknown_submission" });
  }
  ctx.audit.target = { type: "submission", id: submission.id };
  return submission;
}

/**
 * POST /api/exchange/claims/{id}/change — a new version of the calling client's decided prior
 * authorization (docs/decisions/114; guide v2.7 Table 37): the body is the whole new request (a
 * Claim with use `preauthorization`, all its services, its own identifier); the portal names the
 * version it changes in `related` (prior) and keeps its preAuthRef, then stores and sends it like
 * any submission. 202 with the acknowledgement; 404 for another's; 409 when this version is not
 * the current approved one; 422 naming the element that does not fit a change.
 */
export async function changeAuthorization(ctx: CallContext, request: Request, id: string): Promise<Response> {
  const earlier = await ownSubmission(ctx, id);
  const { config } = ctx.deps;
  const body = await readJsonObject(request, { maxBytes: config.maxBodyBytes });
  if (earlier.kind !== "preauthorization") throw new AppError("conflict", "Only a prior authorization can be changed; a claim is appealed or fixed.", { reason: "not_an_authorization" });
  const versions = await authorizationVersions(ctx.db, earlier.id);
  if (!changeableVersion(versions, earlier.id)) {
    throw new AppError("conflict", "Only the current approved version can be changed, and not while an earlier change is still with the payer.", { reason: "not_changeable" });
  }
  const preAuthRef = typeof earlier.response?.preAuthRef === "string" ? earlier.response.preAuthRef : undefined;
  if (!preAuthRef || !earlier.identifierValue) throw new AppError("conflict", "The authorization has no reference to keep.", { reason: "not_changeable" });
  if (body.use !== "preauthorization") throw unprocessable("Claim.use", "a change of an authorization is a request with use preauthorization", "change_use");
  if (body.related !== undefined) throw unprocessable("Claim.related", "leave it out: the portal names the version this one changes", "change_related");
  const insurance = Array.isArray(body.insurance) ? body.insurance.filter(isObject) : [];
  insurance.forEach((ins, i) => {
    const refs = ins.preAuthRef;
    if (refs !== undefined && !(Array.isArray(refs) && refs.every((r) => r === preAuthRef))) {
      throw unprocessable(`Claim.insurance[${i}].preAuthRef`, `a change keeps the authorization's reference ${preAuthRef}`, "change_reference");
    }
  });
  const claim: Json = {
    ...body,
    ...(insurance.length > 0 ? { insurance: insurance.map((ins) => ({ ...ins, preAuthRef: [preAuthRef] })) } : {}),
    related: [
      {
        claim: { identifier: { ...(earlier.identifierSystem ? { system: earlier.identifierSystem } : {}), value: earlier.identifierValue } },
        relationship: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship", code: "prior" }] },
      },
    ],
  };
  const { submission, replay, status } = await submitApiClaim({ db: ctx.db, now: ctx.now, channel: EXCHANGE_API_CHANNEL, createdBy: createdByOf(ctx.client.clientId), replacesId: earlier.id, audit: intakeAuditOf(ctx) }, claim, {
    providerOrgId: config.providerOrgId,
    allowSandboxTestIds: config.allowSandboxTestIds,
    protocol: config.protocol,
    prefix: "Claim",
    requireIdentifier: true,
  });
  ctx.audit.target = { type: "submission", id: submission.id };
  ctx.audit.recorded = true;
  return fhirResponse(acknowledgement(submission, ctx.now), status, { Location: statusPath(submission.id), ...(replay ? { "X-Idempotent-Replay": "true" } : {}) });
}

/**
 * POST /api/exchange/claims/{id}/evidence — information sent to the payer unasked about the calling
 * client's claim or authorization (docs/decisions/115; guide v2.7 7.4.2.3). The body is a
 * Parameters resource: `text` (valueString), `attachment` (valueAttachment: contentType, title,
 * base64 data; PDF, JPEG or PNG), `sequence` (valuePositiveInt, the lines it concerns). 200 with
 * the sent Communication's id; 409 while the payer does not hold it; 422 naming the parameter.
 */
export async function sendEvidenceApi(ctx: CallContext, request: Request, id: string): Promise<Response> {
  const submission = await ownSubmission(ctx, id);
  const body = await readJsonObject(request, { maxBytes: ctx.deps.config.maxBodyBytes });
  if (body.resourceType !== "Parameters") throw unprocessable("resourceType", "must be Parameters", "resource_type");
  const parameters = Array.isArray(body.parameter) ? body.parameter : [];
  const userId = createdByOf(ctx.client.clientId);
  let text = "";
  const sequences: number[] = [];
  const attachmentIds: string[] = [];
  for (const [i, p] of parameters.entries()) {
    const at = `Parameters.parameter[${i}]`;
    if (!isObject(p)) throw unprocessable(at, "must be an object", "evidence_parameter");
    if (p.name === "text") {
      if (typeof p.valueString !== "string") throw unprocessable(`${at}.valueString`, "the message, as text", "evidence_text");
      text = text ? `${text}\n${p.valueString}` : p.valueString;
    } else if (p.name === "sequence") {
      if (typeof p.valuePositiveInt !== "number" || !Number.isInteger(p.valuePositiveInt) || p.valuePositiveInt < 1) throw unprocessable(`${at}.valuePositiveInt`, "a line's sequence (a positive whole number)", "evidence_sequence");
      sequences.push(p.valuePositiveInt);
    } else if (p.name === "attachment") {
      const a = p.valueAttachment;
      if (!isObject(a) || typeof a.data !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(a.data)) throw unprocessable(`${at}.valueAttachment.data`, "the file's bytes, base64", "evidence_attachment");
      const stored = await storeAttachment(ctx.db, { bytes: new Uint8Array(Buffer.from(a.data, "base64")), fileName: typeof a.title === "string" && a.title.trim() ? a.title : `attachment-${i + 1}`, uploadedBy: userId });
      if (!stored.ok) throw unprocessable(`${at}.valueAttachment`, `not taken (${stored.reason}): PDF, JPEG or PNG up to 10 MB`, "evidence_attachment");
      attachmentIds.push(stored.attachment.id);
    } else {
      throw unprocessable(`${at}.name`, "one of text, attachment, sequence", "evidence_parameter");
    }
  }
  const caller: Caller = { actor: ctx.actor, userId, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) };
  const result = await sendEvidence({ db: ctx.db, port: ctx.deps.port, providerOrgId: ctx.deps.config.providerOrgId, clock: () => ctx.now }, caller, { submissionId: submission.id, text, attachmentIds, sequences }, "exchange-api");
  if (!result.ok) {
    if (result.error === "invalid") {
      const [field, messages] = Object.entries(result.fieldErrors)[0] ?? ["text", ["empty"]];
      const path = field === "sequences" ? "Parameters.parameter(sequence)" : field === "attachmentIds" ? "Parameters.parameter(attachment)" : "Parameters.parameter(text)";
      throw unprocessable(path, messages?.[0] === "empty" ? "give a text or at least one attachment" : (messages?.[0] ?? "invalid"), "evidence_invalid");
    }
    if (result.error === "not_sendable") throw new AppError("conflict", "The payer does not hold this submission yet (or it was cancelled): nothing was sent.", { reason: "evidence_not_sendable" });
    if (result.error === "platform") throw new AppError("platform_error", `The platform did not take the information${result.reason ? `: ${result.reason}` : "."} Nothing was sent; safe to repeat.`, { reason: "platform" });
    throw new AppError("not_found", "No such submission.", { reason: "unknown_submission" });
  }
  ctx.audit.details.evidence = result.id;
  return fhirResponse(
    { resourceType: "Parameters", parameter: [{ name: "evidence", valueString: result.id }, { name: "communication", valueString: result.communicationId }, { name: "status", valueCode: "sent" }] },
    200,
  );
}

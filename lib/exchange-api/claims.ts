import type { ClaimResponse, Identifier, OperationOutcome, Parameters, ParametersParameter } from "@medplum/fhirtypes";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { coverages, submissions } from "@/lib/db";
import {
  DECISION_STATUSES,
  claimIdentifierSystem,
  claimTotalMinor,
  getSubmission,
  submissionTimeline,
  submit,
  type Submission,
} from "@/lib/exchange";
import { ClaimSchema, PLATFORM_ERROR_SYSTEM, PORTAL_SUBMISSION_STATUS_EXTENSION, parseReference, platformIssue } from "@/lib/fhir";
import { isUuid, type CallContext } from "./api";
import { ApiProblem, fhirResponse, readJsonObject } from "./http";
import { expectResourceType, forceProvider, parseResource } from "./validation";

const RT = "Claim";
export const EXCHANGE_API_CHANNEL = "exchange-api";
/** System of the identifier that names a submission in the portal (its UUID). */
export const SUBMISSION_ID_SYSTEM = "https://clinic.example/fhir/submission-id";
/** System of the portal status carried in the status Parameters. */
export const SUBMISSION_STATUS_SYSTEM = "https://clinic.example/fhir/CodeSystem/submission-status";

/** The largest total a submission row holds (minor units in a 32-bit integer column). */
const MAX_TOTAL_MINOR = 2_147_483_647;

export function createdByOf(clientId: string): string {
  return `org:${clientId}`;
}

export function statusPath(submissionId: string): string {
  return `/api/exchange/claims/${submissionId}/status`;
}

/** The client's own business identifier: the first Claim.identifier with a value. */
function clientIdentifier(identifiers: Identifier[] | undefined): { system?: string; value: string } | undefined {
  const first = identifiers?.find((i) => typeof i.value === "string" && i.value.trim() !== "");
  return first ? { ...(first.system ? { system: first.system } : {}), value: first.value! } : undefined;
}

/** POST /api/exchange/claims/submit */
export async function submitClaim(ctx: CallContext, request: Request): Promise<Response> {
  const { config } = ctx.deps;
  const body = await readJsonObject(request, config.maxBodyBytes);
  expectResourceType(body, RT);
  const claim = parseResource(ClaimSchema, forceProvider(body, RT, config.providerOrgId), RT);
  if (claim.use !== "claim" && claim.use !== "preauthorization") {
    throw ApiProblem.plain(422, "not-supported", "Claim.use must be claim or preauthorization", ["Claim.use"], "use");
  }
  const ident = clientIdentifier(claim.identifier);
  if (!ident) {
    throw new ApiProblem(422, [platformIssue({ code: "ERR-004", diagnostics: "Claim.identifier: your business identifier (system and value) is required", expression: ["Claim.identifier"] })], {}, "missing_field");
  }
  if (ident.value.length > 200 || (ident.system?.length ?? 0) > 500) {
    throw ApiProblem.plain(400, "too-long", "Claim.identifier is too long", ["Claim.identifier[0]"], "identifier_length");
  }
  const portalSystem = claimIdentifierSystem(config.providerOrgId);
  if (ident.system === portalSystem) {
    throw ApiProblem.plain(422, "business-rule", `Claim.identifier: the system ${portalSystem} is reserved for the portal; use your own`, ["Claim.identifier[0].system"], "identifier_system");
  }
  const patientId = parseReference(claim.patient.reference, "Patient")?.id;
  if (!patientId) throw ApiProblem.plain(422, "value", "Claim.patient must reference a Patient", ["Claim.patient"], "patient");
  const money = claimTotalMinor({ ...claim });
  if (money && Math.abs(money.totalMinor) > MAX_TOTAL_MINOR) {
    throw ApiProblem.plain(422, "value", "Claim.item: the total is too large", ["Claim.item"], "total");
  }
  const insurerId = await insurerOf(ctx.db, claim);
  const createdBy = createdByOf(ctx.client.clientId);

  // One transaction, serialized per (client, identifier): a resubmission finds the first one.
  const { submission, replay } = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`exchange-api|${createdBy}|${ident.system ?? ""}|${ident.value}`}))`);
    const [existing] = await tx
      .select()
      .from(submissions)
      .where(
        and(
          eq(submissions.channel, EXCHANGE_API_CHANNEL),
          eq(submissions.createdBy, createdBy),
          sql`${submissions.claim} -> 'identifier' @> ${JSON.stringify([ident])}::jsonb`,
        ),
      )
      .limit(1);
    if (existing) return { submission: existing, replay: true };
    const created = await submit(
      { db: tx, clock: () => ctx.now },
      {
        kind: claim.use as "claim" | "preauthorization",
        patientId,
        insurerId,
        claim: { ...claim },
        channel: EXCHANGE_API_CHANNEL,
        createdBy,
        source: "api",
      },
    );
    return { submission: created, replay: false };
  });
  ctx.audit.target = { type: "submission", id: submission.id };
  ctx.audit.details.kind = submission.kind;
  ctx.audit.details.replay = replay;
  return fhirResponse(acknowledgement(submission, ctx.now), 202, {
    Location: statusPath(submission.id),
    ...(replay ? { "X-Idempotent-Replay": "true" } : {}),
  });
}

async function insurerOf(db: Db, claim: { insurer?: { reference: string }; insurance: { focal: boolean; coverage: { reference: string } }[] }): Promise<string | undefined> {
  const fromClaim = parseReference(claim.insurer?.reference, "Organization")?.id;
  if (fromClaim) return fromClaim;
  const focal = claim.insurance.find((i) => i.focal) ?? claim.insurance[0];
  const coverageRef = parseReference(focal?.coverage.reference, "Coverage")?.id;
  if (!coverageRef) return undefined;
  const [row] = await db.select({ insurerId: coverages.insurerId }).from(coverages).where(eq(coverages.coverageRef, coverageRef)).limit(1);
  return row?.insurerId;
}

/** The 202 body: a ClaimResponse with outcome `queued` naming the submission (see docs/decisions/020). */
export function acknowledgement(submission: Submission, now: Date): ClaimResponse {
  const claim = submission.claim as { type?: ClaimResponse["type"]; patient?: { reference?: string }; provider?: { reference?: string }; identifier?: Identifier[] };
  const outcome = outcomeOf(submission);
  return {
    resourceType: "ClaimResponse",
    identifier: [
      { system: SUBMISSION_ID_SYSTEM, value: submission.id },
      ...(submission.identifierSystem && submission.identifierValue ? [{ system: submission.identifierSystem, value: submission.identifierValue }] : []),
    ],
    status: "active",
    type: claim.type ?? { coding: [{ code: "institutional" }] },
    use: submission.kind,
    patient: { reference: claim.patient?.reference ?? `Patient/${submission.patientId}` },
    created: now.toISOString(),
    insurer: submission.insurerId ? { reference: `Organization/${submission.insurerId}` } : { display: "Not known until the platform answers" },
    ...(claim.provider?.reference ? { requestor: { reference: claim.provider.reference } } : {}),
    request: { identifier: clientIdentifier(claim.identifier?.filter((i) => i.system !== submission.identifierSystem)) },
    outcome,
    disposition: `Submission ${submission.status}`,
    extension: [{ url: PORTAL_SUBMISSION_STATUS_EXTENSION, valueCode: submission.status }],
  };
}

function outcomeOf(submission: Submission): ClaimResponse["outcome"] {
  switch (submission.status) {
    case "complete":
    case "denied":
      return "complete";
    case "partial":
      return "partial";
    case "rejected":
    case "failed":
    case "cancelled":
      return "error";
    default:
      return "queued";
  }
}

/** GET /api/exchange/claims/{id}/status — only the calling client's own submissions exist for it. */
export async function claimStatus(ctx: CallContext, id: string): Promise<Response> {
  const submission = isUuid(id) ? await getSubmission(ctx.db, id) : undefined;
  if (!submission || submission.channel !== EXCHANGE_API_CHANNEL || submission.createdBy !== createdByOf(ctx.client.clientId)) {
    throw ApiProblem.plain(404, "not-found", "No such submission", undefined, "unknown_submission");
  }
  ctx.audit.target = { type: "submission", id: submission.id };
  ctx.audit.details.submissionStatus = submission.status;
  const timeline = await submissionTimeline(ctx.db, submission.id);
  return fhirResponse(statusParameters(submission, timeline), 200);
}

type TimelineRow = Awaited<ReturnType<typeof submissionTimeline>>[number];

/** The status representation: a FHIR Parameters resource (docs/decisions/020). */
export function statusParameters(submission: Submission, timeline: TimelineRow[]): Parameters {
  const claim = submission.claim as { identifier?: Identifier[] };
  const own = clientIdentifier(claim.identifier?.filter((i) => i.system !== submission.identifierSystem));
  const parameter: ParametersParameter[] = [
    { name: "submission", valueId: submission.id },
    { name: "use", valueCode: submission.kind },
    { name: "status", valueCoding: { system: SUBMISSION_STATUS_SYSTEM, code: submission.status } },
    { name: "outcome", valueCode: outcomeOf(submission) },
  ];
  if (submission.identifierSystem && submission.identifierValue) {
    parameter.push({ name: "identifier", valueIdentifier: { system: submission.identifierSystem, value: submission.identifierValue } });
  }
  if (own) parameter.push({ name: "clientIdentifier", valueIdentifier: own });
  if (submission.platformId) parameter.push({ name: "platformClaim", valueReference: { reference: `Claim/${submission.platformId}` } });
  parameter.push({ name: "created", valueInstant: submission.createdAt.toISOString() });
  parameter.push({ name: "updated", valueInstant: submission.updatedAt.toISOString() });
  if (submission.attempts > 0) parameter.push({ name: "attempts", valueInteger: submission.attempts });
  for (const event of timeline) {
    const part: ParametersParameter[] = [
      { name: "at", valueInstant: event.at.toISOString() },
      ...(event.fromStatus ? [{ name: "from", valueCode: event.fromStatus }] : []),
      { name: "to", valueCode: event.toStatus },
      { name: "source", valueCode: event.source },
    ];
    const detail = event.detail ?? {};
    if (typeof detail.code === "string") part.push({ name: "code", valueCode: detail.code });
    if (typeof detail.status === "number") part.push({ name: "httpStatus", valueInteger: detail.status });
    parameter.push({ name: "event", part });
  }
  if ((submission.status === "rejected" || submission.status === "failed") && submission.errors?.length) {
    const issues: OperationOutcome["issue"] = submission.errors.map((e) => ({
      severity: "error",
      code: "processing",
      ...(e.code ? { details: { coding: [{ system: PLATFORM_ERROR_SYSTEM, code: e.code }], ...(e.resolution ? { text: e.resolution } : {}) } } : {}),
      ...(e.diagnostics ? { diagnostics: e.diagnostics } : {}),
      ...(e.field ? { expression: [e.field] } : {}),
    }));
    parameter.push({ name: "errors", resource: { resourceType: "OperationOutcome", issue: issues } });
  }
  if ((DECISION_STATUSES as readonly string[]).includes(submission.status) && submission.response) {
    parameter.push({ name: "claimResponse", resource: submission.response as unknown as ClaimResponse });
  }
  return { resourceType: "Parameters", id: submission.id, parameter };
}

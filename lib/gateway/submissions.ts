import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, SubmissionKind } from "@/lib/db";
import { coverages, submissions } from "@/lib/db";
import {
  IllegalTransitionError,
  SubmissionNotFoundError,
  claimIdentifierSystem,
  claimTotalMinor,
  getSubmission,
  submissionTimeline,
  submit,
  type Submission,
} from "@/lib/exchange";
import { ClaimSchema, PLATFORM_CURRENCY, checkNationalId, fromMinorUnits, parseReference, toMinorUnits, type ClaimParsed } from "@/lib/fhir";
import { GatewayError, issuePath, type FieldIssue } from "./http";
import type { GatewayContext } from "./run";
import { isUuid } from "@/lib/ids";

/** The channel every gateway submission carries (`submissions.channel`). */
export const GATEWAY_CHANNEL = "gateway";
/** The largest total a submission row holds (minor units in a 32-bit integer column). */
const MAX_TOTAL_MINOR = 2_147_483_647;

/** `submissions.created_by` of a gateway submission: the token, never its secret. */
export function createdByToken(tokenId: string): string {
  return `gateway:${tokenId}`;
}

const KIND_LABEL: Record<SubmissionKind, string> = { claim: "claim", preauthorization: "authorization request" };

/**
 * Validates a FHIR Claim for `kind` and fills in what the portal owns: `use` (when absent) and
 * `provider` (this clinic; another organization is refused). Failures are 422 `invalid_data` with
 * one issue per field, paths under `prefix` (e.g. `data.claim`).
 */
export function validateClaim(input: unknown, kind: SubmissionKind, providerOrgId: string, allowSandboxTestIds: boolean, prefix: string): ClaimParsed {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new GatewayError(422, "invalid_data", `${prefix} must be a FHIR Claim (a JSON object).`, { issues: [{ path: prefix, message: "expected a FHIR Claim object" }] });
  }
  const body = { ...(input as Record<string, unknown>) };
  if (body.resourceType !== "Claim") {
    throw new GatewayError(422, "invalid_data", "resourceType must be Claim.", { issues: [{ path: issuePath(prefix, ["resourceType"]), message: "must be Claim" }] });
  }
  if (body.use === undefined) body.use = kind;
  if (body.use !== kind) {
    const hint = kind === "claim" ? "the authorization agent takes preauthorization" : "the claim agent takes claims";
    throw new GatewayError(422, "invalid_data", `Claim.use must be ${kind} for this task (${hint}).`, { issues: [{ path: issuePath(prefix, ["use"]), message: `must be ${kind}` }] });
  }
  const expectedProvider = `Organization/${providerOrgId}`;
  if (body.provider === undefined) body.provider = { reference: expectedProvider };
  else if ((body.provider as { reference?: unknown } | null)?.reference !== expectedProvider) {
    throw new GatewayError(422, "invalid_data", `Claim.provider must be ${expectedProvider} (this clinic) or left out.`, {
      issues: [{ path: issuePath(prefix, ["provider"]), message: `must be ${expectedProvider} or absent` }],
    });
  }
  const parsed = ClaimSchema.safeParse(body);
  if (!parsed.success) {
    const issues: FieldIssue[] = parsed.error.issues.slice(0, 20).map((i) => ({ path: issuePath(prefix, i.path), message: i.message }));
    throw new GatewayError(422, "invalid_data", `The ${KIND_LABEL[kind]} is not a valid FHIR Claim.`, { issues });
  }
  const claim = parsed.data;
  const patientId = parseReference(claim.patient.reference, "Patient")?.id;
  if (!patientId || !checkNationalId(patientId, { allowSandboxTestIds }).valid) {
    throw new GatewayError(422, "invalid_data", "Claim.patient must reference Patient/<national ID or Iqama number> with a valid number.", {
      issues: [{ path: issuePath(prefix, ["patient", "reference"]), message: "must be Patient/<valid national ID or Iqama>" }],
    });
  }
  const money = claimTotalMinor({ ...claim });
  if (money && Math.abs(money.totalMinor) > MAX_TOTAL_MINOR) {
    throw new GatewayError(422, "invalid_data", "The claim's total is too large.", { issues: [{ path: issuePath(prefix, ["item"]), message: "total too large" }] });
  }
  return claim;
}

/** The caller's own business identifier: the first Claim.identifier with a value. */
function clientIdentifier(claim: ClaimParsed): { system?: string; value: string } | undefined {
  const first = claim.identifier?.find((i) => typeof i.value === "string" && i.value.trim() !== "");
  return first ? { ...(first.system ? { system: first.system } : {}), value: first.value! } : undefined;
}

async function insurerOf(db: Db, claim: ClaimParsed): Promise<string | undefined> {
  const fromClaim = parseReference(claim.insurer?.reference, "Organization")?.id;
  if (fromClaim) return fromClaim;
  const focal = claim.insurance.find((i) => i.focal) ?? claim.insurance[0];
  const coverageRef = parseReference(focal?.coverage.reference, "Coverage")?.id;
  if (!coverageRef) return undefined;
  const [row] = await db.select({ insurerId: coverages.insurerId }).from(coverages).where(eq(coverages.coverageRef, coverageRef)).limit(1);
  return row?.insurerId;
}

/**
 * Submits a validated Claim through the pipeline (createDraft + queue, channel `gateway`). When the
 * Claim carries the caller's own identifier, a resubmission by the same token returns the first
 * submission (`replay: true`) instead of creating a second one.
 */
export async function submitThroughPipeline(ctx: GatewayContext, claim: ClaimParsed, kind: SubmissionKind, prefix: string): Promise<{ submission: Submission; replay: boolean }> {
  const ident = clientIdentifier(claim);
  const portalSystem = claimIdentifierSystem(ctx.config.providerOrgId);
  if (ident && ident.system === portalSystem) {
    throw new GatewayError(422, "invalid_data", `Claim.identifier: the system ${portalSystem} is reserved for the portal; use your own.`, {
      issues: [{ path: issuePath(prefix, ["identifier", 0, "system"]), message: "reserved for the portal" }],
    });
  }
  if (ident && (ident.value.length > 200 || (ident.system?.length ?? 0) > 500)) {
    throw new GatewayError(422, "invalid_data", "Claim.identifier is too long.", { issues: [{ path: issuePath(prefix, ["identifier", 0]), message: "too long" }] });
  }
  const patientId = parseReference(claim.patient.reference, "Patient")!.id;
  const insurerId = await insurerOf(ctx.db, claim);
  const createdBy = createdByToken(ctx.token.id);
  return ctx.db.transaction(async (tx) => {
    if (ident) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`gateway|${createdBy}|${ident.system ?? ""}|${ident.value}`}))`);
      const [existing] = await tx
        .select()
        .from(submissions)
        .where(
          and(
            eq(submissions.channel, GATEWAY_CHANNEL),
            eq(submissions.createdBy, createdBy),
            eq(submissions.kind, kind),
            sql`${submissions.claim} -> 'identifier' @> ${JSON.stringify([ident])}::jsonb`,
          ),
        )
        .limit(1);
      if (existing) return { submission: existing, replay: true };
    }
    const created = await submit(
      { db: tx, clock: () => ctx.now },
      { kind, patientId, insurerId, claim: { ...claim }, channel: GATEWAY_CHANNEL, createdBy, source: "api" },
    );
    return { submission: created, replay: false };
  });
}

/** What a submit task answers. */
export function submittedResult(submission: Submission, replay: boolean, agent: string) {
  return {
    submissionId: submission.id,
    kind: submission.kind,
    status: submission.status,
    identifier: submission.identifierSystem && submission.identifierValue ? { system: submission.identifierSystem, value: submission.identifierValue } : null,
    replay,
    next: { agent, task: "status", data: { submissionId: submission.id } },
  };
}

export const statusDataSchema = z.union([
  z.strictObject({ submissionId: z.string().refine(isUuid, "expected a submission id (UUID)") }),
  z.strictObject({ identifier: z.string().trim().min(1).max(200) }),
]);

/**
 * Finds a submission of `kind` by its id or by an identifier: the portal's business identifier
 * (`Claim.identifier[0].value`, fixed when queued; any channel — an assistant may ask about a claim
 * made in the pages) or the caller's own Claim identifier value (submissions of this token).
 */
export async function findSubmission(ctx: GatewayContext, kind: SubmissionKind, data: z.infer<typeof statusDataSchema>): Promise<Submission | undefined> {
  const { db } = ctx;
  if ("submissionId" in data) {
    const row = await getSubmission(db, data.submissionId);
    return row?.kind === kind ? row : undefined;
  }
  const system = claimIdentifierSystem(ctx.config.providerOrgId);
  const [portal] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.identifierSystem, system), eq(submissions.identifierValue, data.identifier), eq(submissions.kind, kind)))
    .limit(1);
  if (portal) return portal;
  const [own] = await db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.channel, GATEWAY_CHANNEL),
        eq(submissions.createdBy, createdByToken(ctx.token.id)),
        eq(submissions.kind, kind),
        sql`${submissions.claim} -> 'identifier' @> ${JSON.stringify([{ value: data.identifier }])}::jsonb`,
      ),
    )
    .orderBy(desc(submissions.createdAt))
    .limit(1);
  return own;
}

type Money = { value?: number; currency?: string };
type Adjudication = { category?: { coding?: { code?: string }[] }; amount?: Money };

/** Sums of the ClaimResponse's adjudication by category (submitted, eligible, benefit), in minor units. */
function adjudicationTotals(response: Record<string, unknown>): Record<string, { value: number; currency: string }> {
  const totals: Record<string, { minor: number; currency: string }> = {};
  const add = (a: Adjudication) => {
    const code = a.category?.coding?.[0]?.code;
    if (!code || typeof a.amount?.value !== "number") return;
    // Exact conversion (never value × 100 on a float): an amount with more than two decimals is left out.
    const minor = toMinorUnits(a.amount.value);
    if (minor === undefined) return;
    const t = (totals[code] ??= { minor: 0, currency: a.amount.currency ?? PLATFORM_CURRENCY });
    t.minor += minor;
  };
  const total = response.total as Adjudication[] | undefined;
  if (Array.isArray(total) && total.length) total.forEach(add);
  else for (const item of (response.item as { adjudication?: Adjudication[] }[] | undefined) ?? []) (item.adjudication ?? []).forEach(add);
  return Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, { value: fromMinorUnits(v.minor), currency: v.currency }]));
}

/** The status answer: state, decision, platform errors (with their resolution) and the timeline. */
export async function statusResult(db: Db, submission: Submission) {
  const timeline = await submissionTimeline(db, submission.id);
  const response = submission.response;
  const preAuthRef = response && typeof response.preAuthRef === "string" ? response.preAuthRef : undefined;
  return {
    submissionId: submission.id,
    kind: submission.kind,
    status: submission.status,
    channel: submission.channel,
    identifier: submission.identifierSystem && submission.identifierValue ? { system: submission.identifierSystem, value: submission.identifierValue } : null,
    platformClaimId: submission.platformId,
    total: submission.totalMinor === null ? null : { value: submission.totalMinor / 100, currency: submission.currency ?? "SAR" },
    attempts: submission.attempts,
    createdAt: submission.createdAt.toISOString(),
    updatedAt: submission.updatedAt.toISOString(),
    decidedAt: submission.decidedAt?.toISOString() ?? null,
    decision: response
      ? {
          outcome: typeof response.outcome === "string" ? response.outcome : null,
          disposition: typeof response.disposition === "string" ? response.disposition : null,
          ...(preAuthRef ? { preAuthRef } : {}),
          totals: adjudicationTotals(response),
        }
      : null,
    errors: (submission.errors ?? []).map((e) => ({
      code: e.code ?? null,
      httpStatus: e.status ?? null,
      diagnostics: e.diagnostics ?? null,
      resolution: e.resolution ?? null,
      field: e.field ?? null,
    })),
    timeline: timeline.map((e) => ({
      eventId: e.id,
      at: e.at.toISOString(),
      from: e.fromStatus,
      to: e.toStatus,
      source: e.source,
      ...(typeof e.detail?.code === "string" ? { code: e.detail.code } : {}),
      ...(typeof e.detail?.status === "number" ? { httpStatus: e.detail.status } : {}),
    })),
  };
}

/** Pipeline exceptions as gateway errors (never a 500 for something the caller can act on). */
export function pipelineError(error: unknown): GatewayError | undefined {
  if (error instanceof SubmissionNotFoundError) return new GatewayError(404, "not_found", "No such submission.");
  if (error instanceof IllegalTransitionError) return new GatewayError(409, "conflict", error.message);
  if (error instanceof Error && /does not match the submission kind/.test(error.message)) return new GatewayError(422, "invalid_data", error.message);
  return undefined;
}

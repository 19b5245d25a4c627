import type { ClaimResponse, Resource } from "@medplum/fhirtypes";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { submissions, type SubmissionKind } from "@/lib/db";
import { claimProcessingStatus, isFhirReadError, isResourceOf, readClaimResponse, readReference, referenceId, type ClaimResponseView } from "@/lib/fhir";
import { metrics } from "@/lib/metrics";
import { applyPlatformNews, decisionOf, type PlatformStatus, type ReadResponse } from "./apply";
import { auditPipeline } from "./audit";

/**
 * Everything the platform sends the clinic on its own initiative — a late ClaimResponse, a payer's
 * CommunicationRequest, a PaymentReconciliation, the acknowledgement of a Communication — enters
 * here, whichever way it came: a poll reply in the messaging protocol, a webhook (then a read) in
 * REST. One handler per resource type; the pipeline's own handler is the ClaimResponse one below.
 * Other areas (information requests, payments) pass theirs to `startExchangeServices({ inbound })`
 * from the composition root (lib/server/boot.ts), so lib/pipeline does not depend on them.
 */
export interface InboundContext {
  db: Db;
  clock: () => Date;
  pollAfterMs: number;
  log: (message: string) => void;
  /** How it arrived. */
  source: "poll" | "webhook";
  /** The message event (`communication-request`, `payment-reconciliation`, …) when it came in a message. */
  event?: string;
  /** The message Bundle id or the webhook id: what the timeline and audit cite. */
  messageId?: string;
}

/**
 * `applied`: something changed (a status, a new request, a new remittance); `unchanged`: already
 * known (a repeat — every handler must be idempotent: the exchange and webhooks may deliver twice);
 * `unrouted`: nothing here it belongs to (an unknown claim) or a type no handler reads.
 */
export type InboundResult = "applied" | "unchanged" | "unrouted";

/** The resource as received (read it with the lib/fhir readers: any valid R4 must be understood). */
export type InboundHandler = (context: InboundContext, resource: Record<string, unknown>) => Promise<InboundResult>;

/** Handlers by `resourceType`. */
export type InboundHandlers = Partial<Record<Resource["resourceType"], InboundHandler>>;

/**
 * The submission a ClaimResponse (or anything else that names a Claim) is about: by the platform
 * id when it names one we stored, else by our business identifier — the national exchange names
 * our claim by identifier only, and the platform id may never have been given (decision 073).
 */
export async function submissionForRequest(
  db: Db,
  request: ReturnType<typeof readReference>,
): Promise<{ id: string; kind: SubmissionKind; platformId?: string } | undefined> {
  const platformId = referenceId(request, "Claim");
  const identifier = request?.identifier;
  const [byId] = platformId ? await db.select({ id: submissions.id, kind: submissions.kind }).from(submissions).where(eq(submissions.platformId, platformId)).limit(1) : [];
  const [row] = byId
    ? [byId]
    : identifier?.value
      ? await db
          .select({ id: submissions.id, kind: submissions.kind })
          .from(submissions)
          .where(and(eq(submissions.identifierValue, identifier.value), ...(identifier.system ? [eq(submissions.identifierSystem, identifier.system)] : [])))
          .limit(1)
      : [];
  return row ? { ...row, ...(platformId ? { platformId } : {}) } : undefined;
}

/** A ClaimResponse the platform sent late (pended, then decided): the same transitions, timeline and live events as every other source. */
export const claimResponseInbound: InboundHandler = async (context, resource) => {
  if (!isResourceOf<ClaimResponse>(resource, "ClaimResponse")) return "unrouted";
  // The one reading of this answer (docs/decisions/078): its view travels to apply and the screen.
  const read = readOnce(resource);
  const request = read?.view.request ?? readReference(resource.request);
  const row = await submissionForRequest(context.db, request);
  if (!row) {
    context.log(`[inbound] a ${context.event ?? "ClaimResponse"} for a claim this portal does not know`);
    return "unrouted";
  }
  const decision = decisionOf(read?.view);
  const status: PlatformStatus = decision ?? (claimProcessingStatus(resource) as PlatformStatus | undefined) ?? "pended";
  const applied = await applyPlatformNews({ db: context.db, clock: context.clock, pollAfterMs: context.pollAfterMs }, row.id, {
    status,
    ...(row.platformId ? { platformId: row.platformId } : {}),
    response: decision ? read : undefined,
    source: context.source,
    detail: { event: context.event, platformStatus: status, ...(context.messageId ? { messageId: context.messageId } : {}) },
  });
  metrics().polls.inc({ result: applied.result === "applied" ? "changed" : "unchanged" });
  if (applied.result !== "applied") return "unchanged";
  await auditPipeline(context.db, context.source === "poll" ? "poller" : "platform-webhook", "submission.status", row, "success", { status, messageId: context.messageId }, context.log);
  return "applied";
};

/** A received ClaimResponse with the reader's view; undefined when it is not R4 (then it decides nothing). */
function readOnce(resource: ClaimResponse): ReadResponse | undefined {
  try {
    return readClaimResponse(resource) as { raw: ClaimResponse; view: ClaimResponseView };
  } catch (error) {
    if (isFhirReadError(error)) return undefined;
    throw error;
  }
}

export const PIPELINE_INBOUND: InboundHandlers = { ClaimResponse: claimResponseInbound };

/** Routes one resource to its handler; a type nobody reads is `unrouted` (logged by type only, never content). */
export async function routeInbound(handlers: InboundHandlers, context: InboundContext, resource: Record<string, unknown>): Promise<InboundResult> {
  const type = typeof resource.resourceType === "string" ? resource.resourceType : "";
  const handler = (handlers as Record<string, InboundHandler | undefined>)[type];
  if (!handler) {
    context.log(`[inbound] a ${String(resource.resourceType)} (${context.event ?? "no event"}) has no handler`);
    return "unrouted";
  }
  return handler(context, resource);
}

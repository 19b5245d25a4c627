import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { webhookReceipts } from "@/lib/db";
import { auditRefusal } from "@/lib/audit";
import { contextFromHeaders } from "@/lib/http";
import { adjudicatedResponse, applyPlatformNews, findSubmissionByReference, isDecision, readResponses, type ApplyResult } from "@/lib/submissions";
import { PIPELINE_INBOUND, combineInbound, routeInbound, type InboundHandlers } from "./inbound";
import { type PlatformPort } from "@/lib/platform";
import { auditPipeline, classifyFailure, decisionRetries, reschedule } from "@/lib/submissions";
import { INBOX_REASONS, forgetMessage, noteFetched, recordRouted, storeMessages, summarize } from "@/lib/inbox";

/** Standard Webhooks: a delivery older or newer than this is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export type SignatureProblem = "missing_headers" | "bad_timestamp" | "stale_timestamp" | "bad_secret" | "bad_signature";

/** The HMAC key of a `whsec_<base64>` secret. */
export function webhookKey(secret: string): Buffer | undefined {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret.trim());
  if (!m) return undefined;
  const key = Buffer.from(m[1]!, "base64");
  return key.length > 0 ? key : undefined;
}

/**
 * Verifies `webhook-signature` (one or more space-separated `v1,<base64>`) over
 * `${webhook-id}.${webhook-timestamp}.${rawBody}` with HMAC-SHA256, comparing in constant time,
 * and refuses timestamps more than five minutes away from now. Returns the problem, or null.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  id: string | null | undefined;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  rawBody: string;
  now: Date;
  toleranceSeconds?: number;
}): SignatureProblem | null {
  const { id, timestamp, signature } = input;
  if (!id || !timestamp || !signature) return "missing_headers";
  if (!/^\d{1,12}$/.test(timestamp)) return "bad_timestamp";
  const ts = Number(timestamp);
  if (Math.abs(input.now.getTime() / 1000 - ts) > (input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return "stale_timestamp";
  const key = webhookKey(input.secret);
  if (!key) return "bad_secret";
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${input.rawBody}`).digest();
  for (const part of signature.split(" ")) {
    const [version, value] = part.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  }
  return "bad_signature";
}

export const ClaimStatusWebhookSchema = z.object({
  event: z.literal("claim.status.changed"),
  claim_id: z.string().min(1).max(128),
  status: z.enum(["queued", "pended", "complete", "partial", "denied", "cancelled"]),
  timestamp: z.string().min(1).max(64),
});
export type ClaimStatusWebhook = z.infer<typeof ClaimStatusWebhookSchema>;

/**
 * The sandbox's extension of the spec (documented in sandbox/README.md): the platform announces a
 * resource it holds for the clinic — a payer's CommunicationRequest, a PaymentReconciliation, the
 * acknowledgement of a Communication — and the portal reads it (`GET /{type}/{id}`) and routes it
 * like a polled message (inbound.ts).
 */
export const INBOUND_RESOURCE_TYPES = ["CommunicationRequest", "Communication", "PaymentReconciliation", "ClaimResponse", "Task"] as const;
export type InboundResourceType = (typeof INBOUND_RESOURCE_TYPES)[number];
export const ResourceAvailableWebhookSchema = z.object({
  event: z.literal("resource.available"),
  resource_type: z.enum(INBOUND_RESOURCE_TYPES),
  resource_id: z.string().min(1).max(128),
  timestamp: z.string().min(1).max(64),
});
export type ResourceAvailableWebhook = z.infer<typeof ResourceAvailableWebhookSchema>;
const WebhookSchema = z.discriminatedUnion("event", [ClaimStatusWebhookSchema, ResourceAvailableWebhookSchema]);

export interface WebhookDeps {
  db: Db;
  client: PlatformPort;
  /** WEBHOOK_SECRET (`whsec_…`). */
  secret: string | undefined;
  clock?: () => Date;
  pollAfterMs: number;
  /** How long to wait for the adjudication before leaving it to the poller. */
  fetchTimeoutMs: number;
  log?: (message: string) => void;
  /** Handlers for `resource.available` (the same ones the message poller uses). */
  inbound?: InboundHandlers;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

/**
 * Receipt results: applied, ignored (nothing new or out of order), deferred (left to the poller).
 * A delivery for an unknown claim keeps no receipt and is answered 409, so the platform retries it.
 */
export type ReceiptResult = "applied" | "ignored" | "deferred";

/**
 * `POST /api/webhooks/platform` — `claim.status.changed` from the platform.
 *
 * 1. Signature and timestamp (401, nothing stored otherwise). 2. Body (400). 3. The delivery is
 * recorded by `webhook-id` — a second delivery of the same id answers `{duplicate: true}` and
 * changes nothing. 4. The change is applied: `pended` at once; a decision together with its
 * ClaimResponse, fetched inline within `fetchTimeoutMs`. If the fetch fails or is slow the
 * submission is made due for the poller (same transaction as nothing else — the receipt says
 * `deferred`), so the news is never lost and the platform still gets its 2xx quickly.
 */
export async function handlePlatformWebhook(request: Request, deps: WebhookDeps): Promise<Response> {
  const now = (deps.clock ?? (() => new Date()))();
  if (!deps.secret) return json(503, { error: "webhooks_not_configured" });
  const rawBody = await request.text();
  const problem = verifyWebhookSignature({
    secret: deps.secret,
    id: request.headers.get("webhook-id"),
    timestamp: request.headers.get("webhook-timestamp"),
    signature: request.headers.get("webhook-signature"),
    rawBody,
    now,
  });
  if (problem) {
    // Audited once as denied, counted (not logged) per delivery: docs/decisions/094.
    const ctx = contextFromHeaders(request.headers);
    await auditRefusal(deps.db, { actor: { kind: "anonymous", label: "platform-webhook" }, action: "webhook.signature_refused", junk: "WebhookSignature", requestId: ctx.requestId, ip: ctx.ip, details: { reason: problem } });
    return json(401, { error: "invalid_signature", reason: problem });
  }
  const webhookId = request.headers.get("webhook-id")!;
  let parsedBody: z.infer<typeof WebhookSchema>;
  // A signed delivery we cannot read is kept whole in the inbox as failed (docs/decisions/096), then refused.
  const keepUnreadable = (reason: string) => storeMessages(deps.db, [{ messageId: webhookId, source: "webhook", body: rawBody, unreadable: reason }], now);
  try {
    const parsed = WebhookSchema.safeParse(JSON.parse(rawBody));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => i.path.join(".") || "(root)");
      await keepUnreadable(INBOX_REASONS.notWebhook(issues.join(", ")).slice(0, 300));
      return json(400, { error: "invalid_body", issues });
    }
    parsedBody = parsed.data;
  } catch {
    await keepUnreadable(INBOX_REASONS.notJson());
    return json(400, { error: "invalid_json" });
  }
  if (parsedBody.event === "resource.available") return handleResourceAvailable(parsedBody, webhookId, now, deps);
  const body: ClaimStatusWebhook = parsedBody;

  const { db } = deps;
  const recorded = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(webhookReceipts)
      .values({ webhookId, receivedAt: now, event: body.event, claimId: body.claim_id, status: body.status, result: "ignored" })
      .onConflictDoNothing()
      .returning({ webhookId: webhookReceipts.webhookId });
    if (inserted.length === 0) return { duplicate: true as const };
    // The body whole, in the inbox, in the same step that records (and so acknowledges) the delivery.
    const [kept] = await storeMessages(tx, [{ messageId: webhookId, source: "webhook", event: body.event, body: rawBody, routedByCaller: true }], now);
    const submission = await findSubmissionByReference(tx, { platformId: body.claim_id });
    if (!submission) {
      // Usually the platform decided faster than our worker saved its answer (the platform id).
      // Forget the delivery and ask for it again: the platform's retry arrives once we know the
      // claim, instead of the news waiting for the poller.
      await tx.delete(webhookReceipts).where(eq(webhookReceipts.webhookId, webhookId));
      if (kept) await forgetMessage(tx, kept.id);
      return { duplicate: false as const, submissionId: undefined, kind: undefined, inboxId: undefined };
    }
    // Safety net, same transaction as the receipt: if this process dies before the change below is
    // applied, the poller reads the claim in a few seconds (applying sets its own next look).
    await reschedule(tx, submission.id, { nextAttemptAt: new Date(now.getTime() + 2 * deps.fetchTimeoutMs) }, { statuses: ["sent", "pended"] });
    return { duplicate: false as const, submissionId: submission.id, kind: submission.kind, inboxId: kept?.id };
  });
  if (recorded.duplicate) return json(200, { duplicate: true });
  if (!recorded.submissionId || !recorded.kind) {
    deps.log?.("[webhook] a claim this portal does not know (yet); asked the platform to deliver again");
    return json(409, { error: "unknown_claim", message: "This claim is not known here yet; deliver again later." });
  }

  let result: ReceiptResult;
  const news = { status: body.status, source: "webhook" as const, detail: { webhookId, platformStatus: body.status } };
  if (isDecision(body.status)) {
    let response;
    try {
      const answer = await deps.client.claimResponses(body.claim_id, { signal: AbortSignal.timeout(deps.fetchTimeoutMs) });
      // Chosen by the views the port read: the answer is not read again (docs/decisions/078).
      response = adjudicatedResponse(readResponses(answer));
    } catch (error) {
      const f = classifyFailure(error);
      deps.log?.(`[webhook] adjudication fetch for submission ${recorded.submissionId} failed (${f.kind}); retried in seconds by any instance`);
    }
    // Without a response this makes the submission due again in seconds, with backoff (follow-up.ts).
    result = toReceipt(
      await applyPlatformNews(deps, recorded.submissionId, { ...news, response, retryResponseAt: response ? undefined : decisionRetries().next(recorded.submissionId, now, deps.pollAfterMs) }),
    );
  } else {
    result = toReceipt(await applyPlatformNews(deps, recorded.submissionId, news));
  }
  await db.update(webhookReceipts).set({ result }).where(eq(webhookReceipts.webhookId, webhookId));
  if (recorded.inboxId) await recordRouted(db, recorded.inboxId, { status: "applied", submissionId: recorded.submissionId });
  if (result === "applied") {
    await auditPipeline(db, "platform-webhook", "submission.status", { id: recorded.submissionId, kind: recorded.kind }, "success", { webhookId, status: body.status }, deps.log);
  }
  return json(200, { result });
}

function toReceipt(outcome: { result: ApplyResult }): ReceiptResult {
  switch (outcome.result) {
    case "applied":
      return "applied";
    case "needs_response":
      return "deferred";
    default:
      return "ignored";
  }
}

/**
 * `resource.available`: record the delivery (dedupe by webhook-id), read the resource and route it.
 * A read that fails, or a resource about a claim not known here yet, forgets the delivery and
 * answers non-2xx, so the platform delivers again; handlers are idempotent, so a repeat is harmless.
 */
async function handleResourceAvailable(body: ResourceAvailableWebhook, webhookId: string, now: Date, deps: WebhookDeps): Promise<Response> {
  const { db } = deps;
  const inserted = await db
    .insert(webhookReceipts)
    .values({ webhookId, receivedAt: now, event: body.event, claimId: null, status: body.resource_type, result: "ignored" })
    .onConflictDoNothing()
    .returning({ webhookId: webhookReceipts.webhookId });
  if (inserted.length === 0) return json(200, { duplicate: true });
  // The announcement whole in the inbox; a redelivery (same webhook id) finds the same row.
  const [kept] = await storeMessages(db, [{ messageId: webhookId, source: "webhook", event: body.event, body: JSON.stringify(body), routedByCaller: true }], now);
  const forget = () => db.delete(webhookReceipts).where(eq(webhookReceipts.webhookId, webhookId));
  if (!deps.client.readResource) {
    await forget();
    if (kept) await forgetMessage(db, kept.id);
    return json(503, { error: "platform_not_configured", message: "This portal cannot read platform resources." });
  }
  let resource: Record<string, unknown>;
  try {
    resource = (await deps.client.readResource(body.resource_type, body.resource_id, { signal: AbortSignal.timeout(deps.fetchTimeoutMs) })).data;
  } catch (error) {
    await forget();
    if (kept) await forgetMessage(db, kept.id);
    const f = classifyFailure(error);
    deps.log?.(`[webhook] reading a ${body.resource_type} failed (${f.kind}); asked the platform to deliver again`);
    return json(503, { error: "read_failed", message: `The ${body.resource_type} could not be read yet; deliver again later.` });
  }
  const log = deps.log ?? (() => {});
  if (kept) await noteFetched(db, kept.id, JSON.stringify(resource), summarize(resource));
  const routed = await routeInbound(
    combineInbound(PIPELINE_INBOUND, deps.inbound),
    { db, clock: deps.clock ?? (() => new Date()), pollAfterMs: deps.pollAfterMs, log, source: "webhook", event: body.event, messageId: webhookId, ...(kept ? { inboxId: kept.id } : {}) },
    resource,
  );
  if (routed === "unrouted") {
    // Kept and shown as unmatched (docs/decisions/096); the platform is still asked to deliver again, and a
    // redelivery that now matches settles the same inbox row.
    await forget();
    if (kept) await recordRouted(db, kept.id, { status: "unmatched", reason: INBOX_REASONS.matchedNothing(body.resource_type, body.event) });
    return json(409, { error: "unknown_subject", message: `Nothing here this ${body.resource_type} belongs to (yet); deliver again later.` });
  }
  if (kept) await recordRouted(db, kept.id, { status: "applied" });
  const result: ReceiptResult = routed === "applied" ? "applied" : "ignored";
  await db.update(webhookReceipts).set({ result }).where(eq(webhookReceipts.webhookId, webhookId));
  return json(200, { result });
}

import { createHmac, randomUUID } from "node:crypto";
import type { ClaimProcessingStatus } from "../lib/fhir";
import type { Clock } from "./clock";
import type { Logger } from "./logger";
import { webhookSecretKey } from "./secrets";
import type { SandboxStore, WebhookDelivery } from "./store";

/**
 * `claim.status.changed` webhooks, signed per the Standard Webhooks convention:
 *   webhook-id: msg_<uuid>            (the same on every retry of one delivery)
 *   webhook-timestamp: <unix seconds> (of the attempt)
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)>
 * where key is the base64-decoded part of the `whsec_…` secret.
 *
 * Deliveries are journaled before the first attempt; every attempt is journaled too, so pending
 * retries survive a restart. Backoff: attempt n+1 waits baseDelayMs × 2^(n-1), capped at
 * maxDelayMs; after maxAttempts failed attempts the delivery is marked failed.
 */

export const WEBHOOK_EVENT = "claim.status.changed";
export const RESOURCE_EVENT = "resource.available";

export interface WebhookRetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Time allowed for one attempt (connect + answer). */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 5_000,
  maxDelayMs: 10 * 60_000,
  timeoutMs: 10_000,
};

/** Delay before attempt `attempt + 1`, after `attempt` failed attempts (attempt ≥ 1). */
export function retryDelayMs(policy: WebhookRetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", webhookSecretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signWebhook(secret, id, timestampSeconds, body),
    "user-agent": "clinic-exchange-sandbox",
  };
}

export interface WebhookDispatcherOptions {
  store: SandboxStore;
  clock: Clock;
  logger: Logger;
  url: string | undefined;
  secret: string;
  retry: WebhookRetryPolicy;
}

export class WebhookDispatcher {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Map<string, AbortController>();
  private closed = false;

  constructor(private readonly options: WebhookDispatcherOptions) {}

  /** Schedules every pending delivery found in the store (after a restart). */
  resume(): void {
    for (const delivery of this.options.store.pendingWebhooks()) this.schedule(delivery);
  }

  /** Records a status change and, when a URL is configured, starts delivering it. */
  enqueue(claimId: string, status: ClaimProcessingStatus): WebhookDelivery {
    const now = this.options.clock.now();
    const body = JSON.stringify({
      event: WEBHOOK_EVENT,
      claim_id: claimId,
      status,
      timestamp: new Date(now).toISOString(),
    });
    return this.record(claimId, status, body);
  }

  /**
   * `resource.available` (the sandbox's extension of the spec): a resource waits for the clinic at
   * `GET /{type}/{id}`. Listed under `claimId` = `{type}/{id}` and status `available`.
   */
  announce(resourceType: string, id: string): WebhookDelivery {
    const now = this.options.clock.now();
    const body = JSON.stringify({ event: RESOURCE_EVENT, resource_type: resourceType, resource_id: id, timestamp: new Date(now).toISOString() });
    return this.record(`${resourceType}/${id}`, "available", body);
  }

  private record(claimId: string, status: WebhookDelivery["status"], body: string): WebhookDelivery {
    const now = this.options.clock.now();
    const delivery: WebhookDelivery = {
      id: `msg_${randomUUID()}`,
      claimId,
      status,
      body,
      createdAt: new Date(now).toISOString(),
      state: this.options.url ? "pending" : "recorded",
      attempts: 0,
      nextAttemptAt: this.options.url ? now : undefined,
      lastError: undefined,
      lastHttpStatus: undefined,
    };
    this.options.store.createWebhook(delivery);
    if (this.options.url) this.schedule(delivery);
    return delivery;
  }

  private schedule(delivery: WebhookDelivery): void {
    if (this.closed || !this.options.url) return;
    const existing = this.timers.get(delivery.id);
    if (existing) clearTimeout(existing);
    const delay = Math.max(0, (delivery.nextAttemptAt ?? 0) - this.options.clock.now());
    const timer = setTimeout(() => {
      this.timers.delete(delivery.id);
      void this.attempt(delivery.id);
    }, delay);
    timer.unref?.();
    this.timers.set(delivery.id, timer);
  }

  private async attempt(id: string): Promise<void> {
    const url = this.options.url;
    const delivery = this.options.store.getWebhook(id);
    if (!url || !delivery || delivery.state !== "pending" || this.closed) return;
    const { retry, clock, secret } = this.options;
    const attemptNo = delivery.attempts + 1;
    const timestamp = Math.floor(clock.now() / 1000);
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    const timeout = setTimeout(() => controller.abort(), retry.timeoutMs);
    let httpStatus: number | undefined;
    let error: string | undefined;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: webhookHeaders(secret, id, timestamp, delivery.body),
        body: delivery.body,
        signal: controller.signal,
        redirect: "manual",
      });
      httpStatus = response.status;
      await response.arrayBuffer().catch(() => undefined);
      if (httpStatus < 200 || httpStatus >= 300) error = `HTTP ${httpStatus}`;
    } catch (e) {
      error = e instanceof Error ? (e.name === "AbortError" ? "timeout" : e.message) : String(e);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(id);
    }
    // Closed mid-attempt: leave the delivery pending (the attempt is not journaled) so the next
    // start retries it; the receiver must de-duplicate by webhook-id anyway.
    if (this.closed) return;
    const ok = error === undefined;
    const failedForGood = !ok && attemptNo >= retry.maxAttempts;
    const nextAttemptAt = ok || failedForGood ? undefined : clock.now() + retryDelayMs(retry, attemptNo);
    this.options.store.recordWebhookAttempt({
      id,
      at: new Date(clock.now()).toISOString(),
      attempts: attemptNo,
      state: ok ? "delivered" : failedForGood ? "failed" : "pending",
      nextAttemptAt,
      error,
      httpStatus,
    });
    if (!ok) {
      this.options.logger.info(
        `webhook ${id} attempt ${attemptNo}/${retry.maxAttempts} failed (${error})${failedForGood ? "; giving up" : ""}`,
      );
      const updated = this.options.store.getWebhook(id);
      if (updated && updated.state === "pending") this.schedule(updated);
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
  }
}

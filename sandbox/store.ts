import type { Claim, ClaimResponse, Resource } from "@medplum/fhirtypes";
import path from "node:path";
import type { ClaimProcessingStatus } from "../lib/fhir";
import { Journal } from "./journal";

/**
 * The sandbox's state: claims (authorization requests and claims), their responses, benefit
 * consumption, identifier receipts and webhook deliveries. Kept in memory and made durable by the
 * journal (`<dataDir>/journal.jsonl`), replayed at start.
 */

export interface Consumption {
  coverageId: string;
  category: string;
  /**
   * Halalas paid by the insurer (benefit), counted against the category's annual limit; for the keys
   * DEDUCTIBLE_CONSUMED / OUT_OF_POCKET_CONSUMED (sandbox/adjudication.ts), what the patient met of
   * the annual deductible / paid toward the out-of-pocket maximum.
   */
  amount: number;
  /** Calendar year of the benefit period. */
  year: number;
}

export interface ClaimRecord {
  id: string;
  use: "claim" | "preauthorization";
  providerOrgId: string;
  patientId: string;
  coverageId: string;
  identifierKey: string;
  receivedAt: string;
  /** Milliseconds since the epoch (sandbox clock) of the next processing step, for queued/pended. */
  dueAt: number | undefined;
  status: ClaimProcessingStatus;
  version: number;
  lastUpdated: string;
  /** The Claim as received, plus the platform-assigned id. */
  claim: Claim;
  response: ClaimResponse;
  consumption: Consumption[];
  /** For approved prior authorizations. */
  preAuthRef: string | undefined;
}

export type WebhookState = "pending" | "delivered" | "failed" | "recorded";

export interface WebhookDelivery {
  id: string;
  /** The claim's id, or `{type}/{id}` for `resource.available`. */
  claimId: string;
  status: ClaimProcessingStatus | "available";
  body: string;
  createdAt: string;
  state: WebhookState;
  attempts: number;
  nextAttemptAt: number | undefined;
  lastError: string | undefined;
  lastHttpStatus: number | undefined;
}

export interface ReceiptCount {
  system: string;
  value: string;
  providerOrgId: string;
  count: number;
  claimId: string | undefined;
}

/**
 * A resource the platform holds for a clinic on its own initiative (a payer's CommunicationRequest,
 * a PaymentReconciliation, an acknowledgement): read with `GET /{type}/{id}` after a
 * `resource.available` webhook (REST), or handed out by a poll (messaging). sandbox/mailbox.ts.
 */
export interface MailItem {
  id: string;
  resourceType: string;
  providerOrgId: string;
  /** The message event it travels as in the messaging protocol (`communication-request`, …). */
  event: string;
  resource: Resource;
  createdAt: string;
  /** Messaging only: a whole message handed out as is (the sandbox's way to send a malformed one, docs/decisions/096). */
  raw?: Record<string, unknown>;
}

/** A PaymentNotice the clinic sent about a remittance (sandbox/remittances.ts). */
export interface ReceivedPaymentNotice {
  id: string;
  providerOrgId: string;
  /** The PaymentReconciliation id it is about. */
  paymentId: string;
  paymentStatus: "paid" | "cleared";
  protocol: "rest" | "messaging";
  receivedAt: string;
  resource: Resource;
}

export type JournalEvent =
  | { type: "mail.posted"; item: MailItem }
  | { type: "payment-notice.received"; notice: ReceivedPaymentNotice }
  | { type: "receipt"; at: string; key: string; providerOrgId: string; system: string; value: string }
  | { type: "claim.created"; record: ClaimRecord }
  | {
      type: "claim.updated";
      id: string;
      at: string;
      status: ClaimProcessingStatus;
      dueAt: number | undefined;
      response: ClaimResponse;
      consumption: Consumption[];
      preAuthRef: string | undefined;
    }
  | { type: "webhook.created"; delivery: WebhookDelivery }
  | {
      type: "webhook.attempt";
      id: string;
      at: string;
      attempts: number;
      state: WebhookState;
      nextAttemptAt: number | undefined;
      error: string | undefined;
      httpStatus: number | undefined;
    };

export function identifierKey(providerOrgId: string, system: string | undefined, value: string): string {
  return JSON.stringify([providerOrgId, system ?? "", value]);
}

export class SandboxStore {
  private readonly claims = new Map<string, ClaimRecord>();
  private readonly byIdentifier = new Map<string, string>();
  private readonly byPreAuthRef = new Map<string, string>();
  private readonly receipts = new Map<string, ReceiptCount>();
  private readonly webhooks = new Map<string, WebhookDelivery>();
  private readonly mail = new Map<string, MailItem>();
  private readonly paymentNotices = new Map<string, ReceivedPaymentNotice>();

  private constructor(private readonly journal: Journal<JournalEvent>) {}

  static open(dataDir: string, onTornLine?: (bytes: number) => void): SandboxStore {
    const { journal, events } = Journal.open<JournalEvent>(path.resolve(dataDir, "journal.jsonl"), onTornLine);
    const store = new SandboxStore(journal);
    for (const event of events) store.apply(event);
    return store;
  }

  close(): void {
    this.journal.close();
  }

  private commit(event: JournalEvent): void {
    this.journal.append(event);
    this.apply(event);
  }

  private apply(event: JournalEvent): void {
    switch (event.type) {
      case "receipt": {
        const existing = this.receipts.get(event.key);
        if (existing) existing.count++;
        else
          this.receipts.set(event.key, {
            system: event.system,
            value: event.value,
            providerOrgId: event.providerOrgId,
            count: 1,
            claimId: this.byIdentifier.get(event.key),
          });
        break;
      }
      case "claim.created": {
        const record = structuredClone(event.record);
        this.claims.set(record.id, record);
        this.byIdentifier.set(record.identifierKey, record.id);
        const receipt = this.receipts.get(record.identifierKey);
        if (receipt) receipt.claimId = record.id;
        if (record.preAuthRef) this.byPreAuthRef.set(record.preAuthRef, record.id);
        break;
      }
      case "claim.updated": {
        const record = this.claims.get(event.id);
        if (!record) break;
        record.status = event.status;
        record.dueAt = event.dueAt;
        record.response = structuredClone(event.response);
        record.consumption = structuredClone(event.consumption);
        record.version++;
        record.lastUpdated = event.at;
        if (event.preAuthRef) {
          record.preAuthRef = event.preAuthRef;
          this.byPreAuthRef.set(event.preAuthRef, record.id);
        }
        break;
      }
      case "mail.posted":
        this.mail.set(`${event.item.resourceType}/${event.item.id}`, structuredClone(event.item));
        break;
      case "payment-notice.received":
        this.paymentNotices.set(event.notice.id, structuredClone(event.notice));
        break;
      case "webhook.created":
        this.webhooks.set(event.delivery.id, structuredClone(event.delivery));
        break;
      case "webhook.attempt": {
        const delivery = this.webhooks.get(event.id);
        if (!delivery) break;
        delivery.attempts = event.attempts;
        delivery.state = event.state;
        delivery.nextAttemptAt = event.nextAttemptAt;
        delivery.lastError = event.error;
        delivery.lastHttpStatus = event.httpStatus;
        break;
      }
    }
  }

  // ---- receipts -------------------------------------------------------------------------------

  recordReceipt(providerOrgId: string, system: string | undefined, value: string, at: string): void {
    this.commit({ type: "receipt", at, key: identifierKey(providerOrgId, system, value), providerOrgId, system: system ?? "", value });
  }

  receiptCounts(): ReceiptCount[] {
    return [...this.receipts.values()].map((r) => ({ ...r }));
  }

  // ---- claims ------------------------------------------------------------------------------------

  createClaim(record: ClaimRecord): void {
    this.commit({ type: "claim.created", record });
  }

  updateClaim(update: Omit<Extract<JournalEvent, { type: "claim.updated" }>, "type">): void {
    this.commit({ type: "claim.updated", ...update });
  }

  getClaim(id: string): ClaimRecord | undefined {
    return this.claims.get(id);
  }

  findByIdentifier(key: string): ClaimRecord | undefined {
    const id = this.byIdentifier.get(key);
    return id ? this.claims.get(id) : undefined;
  }

  findByPreAuthRef(ref: string): ClaimRecord | undefined {
    const id = this.byPreAuthRef.get(ref);
    return id ? this.claims.get(id) : undefined;
  }

  allClaims(): ClaimRecord[] {
    return [...this.claims.values()];
  }

  /** Claims still waiting for a processing step (queued or pended). */
  pendingClaims(): ClaimRecord[] {
    return this.allClaims().filter((c) => c.dueAt !== undefined);
  }

  /** Halalas of benefit already paid by adjudicated claims for a coverage category in a year. */
  consumed(coverageId: string, category: string, year: number): number {
    let total = 0;
    for (const record of this.claims.values()) {
      for (const c of record.consumption) {
        if (c.coverageId === coverageId && c.category === category && c.year === year) total += c.amount;
      }
    }
    return total;
  }

  // ---- mail (sandbox/mailbox.ts) ----------------------------------------------------------------

  postMail(item: MailItem): void {
    this.commit({ type: "mail.posted", item });
  }

  getMail(resourceType: string, id: string): MailItem | undefined {
    return this.mail.get(`${resourceType}/${id}`);
  }

  /** In the order posted. */
  allMail(): MailItem[] {
    return [...this.mail.values()];
  }

  // ---- payment notices (sandbox/remittances.ts) ------------------------------------------------

  recordPaymentNotice(notice: ReceivedPaymentNotice): void {
    this.commit({ type: "payment-notice.received", notice });
  }

  /** In the order received. */
  allPaymentNotices(): ReceivedPaymentNotice[] {
    return [...this.paymentNotices.values()];
  }

  // ---- webhooks ----------------------------------------------------------------------------------

  createWebhook(delivery: WebhookDelivery): void {
    this.commit({ type: "webhook.created", delivery });
  }

  recordWebhookAttempt(update: Omit<Extract<JournalEvent, { type: "webhook.attempt" }>, "type">): void {
    this.commit({ type: "webhook.attempt", ...update });
  }

  getWebhook(id: string): WebhookDelivery | undefined {
    return this.webhooks.get(id);
  }

  allWebhooks(): WebhookDelivery[] {
    return [...this.webhooks.values()].map((w) => ({ ...w }));
  }

  pendingWebhooks(): WebhookDelivery[] {
    return [...this.webhooks.values()].filter((w) => w.state === "pending");
  }
}

import { randomBytes, randomUUID } from "node:crypto";
import type { Claim } from "@medplum/fhirtypes";
import { adjudicate, type AdjudicationContext } from "./adjudication";
import { appealRuling, ruleOnLine } from "./appeals";
import type { Clock } from "./clock";
import { ApiError } from "./http";
import type { Logger } from "./logger";
import { REVIEW_THRESHOLD, type ReferenceData } from "./reference-data";
import { FIXED_DISPOSITIONS, claimProcessingStatusExtension } from "../lib/fhir";
import { adjudicatedClaimResponse, queuedClaimResponse } from "./resources";
import { identifierKey, type ClaimRecord, type SandboxStore } from "./store";
import { validateClaim, type ValidatedClaim } from "./validation";
import type { WebhookDispatcher } from "./webhooks";

/**
 * Life cycle of submissions on the platform side:
 *   preauthorization: adjudicated at once → complete | partial | denied
 *   claim:            queued → (pended, when the total exceeds the review threshold) → complete | partial | denied
 * Each step after `queued` runs `delayMs` after the previous one. Every status change is journaled
 * and announced with a `claim.status.changed` webhook. Scheduled steps survive a restart (`dueAt`).
 */
/** The receiving provider's authorization number of a transfer of care: the referral's PA-… number as TR-…. */
export const TRANSFER_PREFIX = "TR-";

export class ClaimsEngine {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly deps: {
      store: SandboxStore;
      reference: ReferenceData;
      clock: Clock;
      webhooks: WebhookDispatcher;
      logger: Logger;
      delayMs: number;
    },
  ) {}

  private context(now: number, claim?: ValidatedClaim, providerOrgId?: string): AdjudicationContext {
    const ruling = claim && providerOrgId ? appealRuling(claim, providerOrgId, this.deps.store) : undefined;
    return {
      now,
      ...(ruling ? { appeal: (item) => ruleOnLine(ruling, item) } : {}),
      reference: this.deps.reference,
      consumed: (coverageId, category, year) => this.deps.store.consumed(coverageId, category, year),
      // A transfer of care's authorization (TR-…, guide 7.3) is the referral's prior authorization (PA-…) for the receiving provider.
      findPreAuth: (ref) => this.deps.store.findByPreAuthRef(ref) ?? (ref.startsWith(TRANSFER_PREFIX) ? this.deps.store.findByPreAuthRef(`PA-${ref.slice(TRANSFER_PREFIX.length)}`) : undefined),
    };
  }

  /** Stores a validated submission and returns its record (adjudicated already for authorizations). */
  submit(v: ValidatedClaim, providerOrgId: string): ClaimRecord {
    const { store, clock } = this.deps;
    const now = clock.now();
    const id = randomUUID();
    const responseId = randomUUID();
    const claim: Claim = { ...(v.received as unknown as Claim), id };
    const base = { responseId, claim, claimId: id, payerId: v.coverage.payerId, now, version: 1 };
    const record: ClaimRecord = {
      id,
      use: v.use,
      providerOrgId,
      patientId: v.patientId,
      coverageId: v.coverage.id,
      identifierKey: identifierKey(providerOrgId, v.identifier.system, v.identifier.value),
      receivedAt: new Date(now).toISOString(),
      dueAt: undefined,
      status: "queued",
      version: 1,
      lastUpdated: new Date(now).toISOString(),
      claim,
      response: queuedClaimResponse(base, "queued"),
      consumption: [],
      preAuthRef: undefined,
    };
    if (v.use === "preauthorization") {
      const result = adjudicate(v, this.context(now));
      // A change of an earlier authorization keeps its reference and, once approved, overrides it:
      // claims using the reference are held to the new version (guide v2.7 7.3.1; decision 114).
      const earlier = changedAuthorization(store, v, providerOrgId);
      const preAuthRef = result.status === "denied" ? undefined : (earlier?.preAuthRef ?? `PA-${randomBytes(5).toString("hex").toUpperCase()}`);
      record.status = result.status;
      record.preAuthRef = preAuthRef;
      record.response = adjudicatedClaimResponse(base, result, preAuthRef);
    } else {
      record.dueAt = now + this.deps.delayMs;
    }
    store.createClaim(record);
    this.deps.webhooks.enqueue(id, record.status);
    if (record.dueAt !== undefined) this.schedule(record);
    return record;
  }

  /** Schedules every claim still waiting for a step (after a restart). */
  resume(): void {
    for (const record of this.deps.store.pendingClaims()) this.schedule(record);
  }

  private schedule(record: ClaimRecord): void {
    if (this.closed || record.dueAt === undefined) return;
    const delay = Math.max(0, record.dueAt - this.deps.clock.now());
    const timer = setTimeout(() => {
      this.timers.delete(record.id);
      try {
        this.step(record.id);
      } catch (error) {
        this.deps.logger.error(`claim step failed: ${(error as Error).message}`);
      }
    }, delay);
    timer.unref?.();
    this.timers.set(record.id, timer);
  }

  /** Runs the next processing step of a queued or pended claim. */
  step(id: string): void {
    const { store, clock, reference } = this.deps;
    const record = store.getClaim(id);
    if (!record || record.dueAt === undefined || this.closed) return;
    const now = clock.now();
    const base = {
      responseId: record.response.id ?? randomUUID(),
      claim: record.claim,
      claimId: record.id,
      payerId: reference.coverages.get(record.coverageId)?.payerId ?? "unknown",
      now,
      version: record.version + 1,
    };
    let validated: ValidatedClaim | undefined;
    try {
      validated = validateClaim({ ...record.claim }, reference, record.providerOrgId);
    } catch (error) {
      // Reference data changed under a stored claim: deny rather than crash.
      const message = error instanceof ApiError ? error.message : String(error);
      this.deps.logger.error(`stored claim no longer validates: ${message}`);
    }
    if (record.status === "queued" && validated && validated.totalSubmitted > REVIEW_THRESHOLD) {
      store.updateClaim({
        id,
        at: new Date(now).toISOString(),
        status: "pended",
        dueAt: now + this.deps.delayMs,
        response: queuedClaimResponse(base, "pended"),
        consumption: [],
        preAuthRef: undefined,
      });
      this.deps.webhooks.enqueue(id, "pended");
      const updated = store.getClaim(id);
      if (updated) this.schedule(updated);
      return;
    }
    const result = validated
      ? adjudicate(validated, this.context(now, validated, record.providerOrgId))
      : {
          status: "denied" as const,
          items: [],
          consumption: [],
          disposition: FIXED_DISPOSITIONS.referenceMismatch,
          totals: { submitted: 0, eligible: 0, copay: 0, benefit: 0 },
        };
    store.updateClaim({
      id,
      at: new Date(now).toISOString(),
      status: result.status,
      dueAt: undefined,
      response: adjudicatedClaimResponse(base, result, undefined),
      consumption: result.consumption,
      preAuthRef: undefined,
    });
    this.deps.webhooks.enqueue(id, result.status);
  }

  /** Runs the next step of a queued or pended claim now instead of at its due time. */
  runNow(id: string): boolean {
    const record = this.deps.store.getClaim(id);
    if (!record || record.dueAt === undefined) return false;
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
    this.step(id);
    return true;
  }

  // ---- Decision 045: information requests hold a claim; cancel/nullify ends it -------------------------

  /**
   * The payer asked for information: a queued or pended claim is pended and waits (no next step)
   * until the clinic answers. Returns false when the claim has no step left (decided, cancelled).
   */
  hold(id: string): boolean {
    const record = this.deps.store.getClaim(id);
    if (!record || record.dueAt === undefined) return false;
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
    const now = this.deps.clock.now();
    const base = this.baseOf(record, now);
    this.deps.store.updateClaim({ id, at: new Date(now).toISOString(), status: "pended", dueAt: undefined, response: queuedClaimResponse(base, "pended"), consumption: [], preAuthRef: undefined });
    this.deps.webhooks.enqueue(id, "pended");
    return true;
  }

  /** The clinic answered: a held claim gets its (revised) decision one step later. */
  release(id: string): boolean {
    const record = this.deps.store.getClaim(id);
    if (!record || record.status !== "pended" || record.dueAt !== undefined) return false;
    const now = this.deps.clock.now();
    this.deps.store.updateClaim({ id, at: new Date(now).toISOString(), status: "pended", dueAt: now + this.deps.delayMs, response: record.response, consumption: [], preAuthRef: undefined });
    const updated = this.deps.store.getClaim(id);
    if (updated) this.schedule(updated);
    return true;
  }

  /** Cancels (authorization, claim in process) or nullifies (decided claim): no further step, benefits released. */
  cancel(id: string): void {
    const record = this.deps.store.getClaim(id);
    if (!record) return;
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
    const now = this.deps.clock.now();
    const response = {
      ...record.response,
      status: "cancelled" as const,
      meta: { versionId: String(record.version + 1), lastUpdated: new Date(now).toISOString() },
      extension: [...(record.response.extension ?? []).filter((e) => e.url !== claimProcessingStatusExtension("cancelled").url), claimProcessingStatusExtension("cancelled")],
    };
    this.deps.store.updateClaim({ id, at: new Date(now).toISOString(), status: "cancelled", dueAt: undefined, response, consumption: [], preAuthRef: undefined });
    this.deps.webhooks.enqueue(id, "cancelled");
  }

  private baseOf(record: ClaimRecord, now: number) {
    return {
      responseId: record.response.id ?? randomUUID(),
      claim: record.claim,
      claimId: record.id,
      payerId: this.deps.reference.coverages.get(record.coverageId)?.payerId ?? "unknown",
      now,
      version: record.version + 1,
    };
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * The earlier authorization a prior-authorization request changes (guide v2.7 Table 37): it names
 * it in `related` (relationship prior, by its business identifier) and carries its preAuthRef; the
 * earlier one is this clinic's, for the same patient, and was approved (fully or in part).
 */
export function changedAuthorization(store: Pick<SandboxStore, "findByPreAuthRef">, v: ValidatedClaim, providerOrgId: string): ClaimRecord | undefined {
  const related = (v.received as unknown as Claim).related ?? [];
  const named = new Set(
    related.filter((r) => r.relationship?.coding?.some((c) => c.code === "prior")).flatMap((r) => (r.claim?.identifier?.value ? [r.claim.identifier.value] : [])),
  );
  if (named.size === 0) return undefined;
  for (const ref of v.preAuthRefs) {
    const record = store.findByPreAuthRef(ref);
    if (!record || record.use !== "preauthorization" || record.patientId !== v.patientId || record.providerOrgId !== providerOrgId) continue;
    if (record.status !== "complete" && record.status !== "partial") continue;
    if ((record.claim.identifier ?? []).some((i) => i.value && named.has(i.value))) return record;
  }
  return undefined;
}

import { randomUUID } from "node:crypto";
import type { Claim } from "@medplum/fhirtypes";
import {
  MAX_CLAIMS_PER_BATCH,
  MessageTooLargeError,
  answersRequest,
  buildBatchMessage,
  claimInBatch,
  nphies,
  readClaimResponse,
  referenceId,
  type BuiltMessage,
  type MessageDestination,
} from "@/lib/fhir";
import { PlatformError, PlatformProtocolError } from "../errors";
import type { BatchOutcome, ClaimAnswer, PlatformPort, ReceivedAnswer } from "../port";
import { asRefusal, idOf, stableUuid, type ClaimIdentifier, type MessagingCore, type Reply } from "./core";

/** Claims grouped by payer licence, then cut at 200 per batch (the 10 MB limit is checked as each batch is built). */
function batchesOf<T extends { license: string }>(ready: readonly T[]): T[][] {
  const byPayer = new Map<string, T[]>();
  for (const r of ready) byPayer.set(r.license, [...(byPayer.get(r.license) ?? []), r]);
  const out: T[][] = [];
  for (const group of byPayer.values()) {
    for (let i = 0; i < group.length; i += MAX_CLAIMS_PER_BATCH) out.push(group.slice(i, i + MAX_CLAIMS_PER_BATCH));
  }
  return out;
}

/** Our business identifier of a claim, required to send it. */
export function identifierOf(claim: Claim, requestId: string): ClaimIdentifier {
  const identifier = claim.identifier?.[0];
  if (!identifier?.value) throw new PlatformError({ status: 422, requestId, field: "Claim.identifier", diagnostics: "a claim is sent with its business identifier" });
  return { ...(identifier.system ? { system: identifier.system } : {}), value: identifier.value };
}

/**
 * Prior authorizations and claims as messages: idempotent resends (Bundle.id, MessageHeader.id,
 * the Claim's id and the timestamp derive from the claim's business identifier and `created`, both
 * fixed when the submission is queued), and batch-requests of up to 200 claims per payer.
 */
export function claimOperations(core: MessagingCore): Pick<PlatformPort, "submitClaim" | "submitClaimBatch"> {
  const { source, clock } = core;

  function claimMessage(
    claim: Claim,
    destination: MessageDestination,
    requestId: string,
    parties: nphies.MessageParties | undefined,
    batch?: { id: string; number: number; period: { start: string; end: string } },
  ) {
    const claimIdentifier = identifierOf(claim, requestId);
    const seed = `claim|${claimIdentifier.system ?? ""}|${claimIdentifier.value}`;
    let focus: Claim = { ...claim, id: claim.id ?? stableUuid(`${seed}|resource`) };
    if (batch) focus = claimInBatch(focus, { ...batch, system: `${source.replace(/\/+$/, "")}/batch` });
    const built = core.build({
      event: claim.use === "preauthorization" ? "priorauth-request" : claim.use === "predetermination" ? "prescriber-request" : "claim-request",
      focus,
      destination,
      seed,
      timestamp: claim.created ? new Date(claim.created) : undefined,
      requestId,
      ...(parties ? { parties } : {}),
    });
    return { built, seed, claimIdentifier };
  }

  /**
   * The ClaimResponse a reply carries; the platform's Claim id only when the answer names one
   * (decision 073); the response message whole, for the inbox (decision 096): the reply as it
   * arrived, or a batch-response's own part.
   */
  function claimAnswer(reply: Reply, batch?: { part?: Record<string, unknown> }): ClaimAnswer {
    const read = core.focusOf(reply, "ClaimResponse", readClaimResponse);
    const platformId = referenceId(read.view.request, "Claim");
    const part = batch?.part;
    const body = batch ? (part ? JSON.stringify(part) : undefined) : reply.received;
    const answer: ReceivedAnswer | undefined =
      body === undefined
        ? undefined
        : { body, source: part ? "batch" : "sync", ...(reply.view.bundleId ? { messageId: reply.view.bundleId } : {}), ...(reply.view.header.event ? { event: reply.view.header.event } : {}) };
    return { data: read.raw, view: read.view, status: reply.status, requestId: reply.requestId, ...(answer ? { answer } : {}), ...(platformId ? { platformId } : {}) };
  }

  return {
    async submitClaim(claim, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const destination = await core.destinationFor({ coverage: idOf(claim.insurance?.[0]?.coverage?.reference, "Coverage") }, requestId, "Claim.insurance[0].coverage");
      const { built, claimIdentifier } = claimMessage(claim, destination, requestId, await core.deps.parties?.(claim));
      const reply = await core.deps.transport.processMessage(built.bundle, "claims", { ...options, requestId });
      core.checkReply(reply.view, { status: reply.status, requestId, headerId: built.headerId, claimIdentifier });
      return claimAnswer({ ...reply, requestId });
    },

    async submitClaimBatch(claims, options = {}): Promise<BatchOutcome[]> {
      const requestId = options.requestId ?? randomUUID();
      const outcomes: (BatchOutcome | undefined)[] = claims.map(() => undefined);
      // What each claim needs before it can travel (its use, identifier and payer): one that lacks
      // it fails alone. Its message is built once, in its batch; one that cannot be built makes its
      // batch fail as a whole, and the outbox then sends those claims alone, each refused on its own.
      type Ready = { index: number; license: string; claim: Claim; claimIdentifier: ClaimIdentifier; parties?: nphies.MessageParties };
      const ready: Ready[] = [];
      for (const [index, claim] of claims.entries()) {
        try {
          if (claim.use !== "claim") throw new PlatformError({ status: 422, requestId, field: "Claim.use", diagnostics: "a batch-request carries claims (use claim) only" });
          const claimIdentifier = identifierOf(claim, requestId);
          const destination = await core.destinationFor({ coverage: idOf(claim.insurance?.[0]?.coverage?.reference, "Coverage") }, requestId, "Claim.insurance[0].coverage");
          const parties = await core.deps.parties?.(claim);
          ready.push({ index, license: destination.payerLicense!, claim, claimIdentifier, ...(parties ? { parties } : {}) });
        } catch (error) {
          outcomes[index] = { ok: false, error };
        }
      }
      // One batch-request per payer, at most 200 claims and 10 MB each.
      const created = claims.map((c) => c.created).filter((c): c is string => typeof c === "string").sort();
      const period = { start: (created[0] ?? clock().toISOString()).slice(0, 10), end: (created.at(-1) ?? clock().toISOString()).slice(0, 10) };
      const queue = batchesOf(ready);
      while (queue.length > 0) {
        const group = queue.shift()!;
        const batchId = stableUuid(`batch|${group.map((r) => `${r.claimIdentifier.system ?? ""}|${r.claimIdentifier.value}`).join(",")}`);
        let inner: ReturnType<typeof claimMessage>[];
        let outer: BuiltMessage;
        try {
          inner = group.map((r, i) => claimMessage(r.claim, { payerLicense: r.license }, requestId, r.parties, { id: batchId, number: i + 1, period }));
          outer = buildBatchMessage({
            messages: inner.map((m) => m.built),
            providerLicense: core.deps.providerLicense,
            payerLicense: group[0]!.license,
            sourceEndpoint: source,
            bundleId: stableUuid(`${batchId}|bundle`),
            headerId: stableUuid(`${batchId}|header`),
            timestamp: clock(),
          });
        } catch (error) {
          // Claims that fit alone but not together: two smaller batches.
          if (error instanceof MessageTooLargeError && group.length > 1) {
            const half = Math.ceil(group.length / 2);
            queue.unshift(group.slice(0, half), group.slice(half));
            continue;
          }
          for (const r of group) outcomes[r.index] = { ok: false, error: asRefusal(error, requestId), batchWide: true };
          continue;
        }
        try {
          const reply = await core.deps.transport.processMessage(outer.bundle, "claims", { ...options, requestId });
          core.checkReply(reply.view, { status: reply.status, requestId, headerId: outer.headerId });
          for (const [i, r] of group.entries()) {
            const own = inner[i]!;
            const answer = reply.view.messages.find((m) => answersRequest(m, own.built.headerId, r.claimIdentifier));
            try {
              if (!answer) throw new PlatformProtocolError({ status: reply.status, requestId, message: "POST /$process-message: the batch-response has no answer for this claim", problems: ["Bundle.entry"] });
              core.checkReply(answer, { status: reply.status, requestId, headerId: own.built.headerId, claimIdentifier: r.claimIdentifier, errorStatus: 422 });
              const part = reply.view.parts.find((p) => p.view === answer)?.raw;
              outcomes[r.index] = { ok: true, answer: claimAnswer({ view: answer, status: reply.status, requestId }, { ...(part ? { part } : {}) }) };
            } catch (error) {
              outcomes[r.index] = { ok: false, error };
            }
          }
        } catch (error) {
          // The whole batch met it (unavailable, refused as a whole): every claim of it did.
          for (const r of group) outcomes[r.index] = { ok: false, error, batchWide: true };
        }
      }
      return outcomes.map((o) => o!);
    },
  };
}

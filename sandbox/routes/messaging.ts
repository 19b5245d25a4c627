import { randomUUID } from "node:crypto";
import type { Bundle, BundleEntry, MessageHeader, OperationOutcomeIssue, Resource } from "@medplum/fhirtypes";
import { MAX_MESSAGES_PER_POLL, MessageBuildError, NATIONAL_EXCHANGE, QUEUED_MESSAGES_TAG, checkMessageRules } from "../../lib/fhir";
import type { SandboxContext } from "../context";
import { ApiError, fhirReply, type Reply } from "../http";
import type { RateLimitGroup } from "../rate-limit";
import { claimView } from "../resources";
import { identifierKey, type ClaimRecord } from "../store";
import { validateClaim } from "../validation";
import { receivePaymentNotice } from "../remittances";
import { claimResponseOf, eligibility } from "./fhir";
import { cancelByTask, receiveCommunication } from "../information-requests";

/**
 * The national exchange's messaging protocol on `POST /$process-message` (issue 17), beside the
 * REST endpoints and with the same adjudication engine. It checks the envelope rules (header first,
 * every fullUrl, focus = an entry's fullUrl, a known event, the clinic's and a payer's licences)
 * and answers in message Bundles: eligibility and prior authorizations at once, claims `queued`;
 * later answers (pended, decided) wait for the clinic's poll-request, at most `count` (≤ 100) per
 * poll, with the `queued-messages` meta tag while more wait. A repeated message (same identifier)
 * is answered with the claim's current reply, never a second claim.
 */

/** The rate group of a message: by what it asks for. */
export function messageRateGroup(event: string): RateLimitGroup {
  if (event === "eligibility-request") return "eligibility";
  if (event === "poll-request" || event === "status-check") return "status";
  return "claims";
}

function messageError(path: string, reason: string, code = "structure"): ApiError {
  const issue: OperationOutcomeIssue = { severity: "error", code: code as OperationOutcomeIssue["code"], diagnostics: `${path}: ${reason}`, expression: [path] };
  return new ApiError(400, [issue]);
}

/** Poll deliveries already made (claim id @ version); the sync reply counts as delivered. */
function delivered(ctx: SandboxContext): Set<string> {
  return ctx.messageDeliveries;
}

const key = (record: ClaimRecord) => `${record.id}@${record.version}`;

function replyBundle(
  ctx: SandboxContext,
  event: string,
  answers: string | undefined,
  focus: Resource | undefined,
  others: Resource[] = [],
  more = false,
  code: "ok" | "fatal-error" = "ok",
): Bundle {
  const base = `${ctx.baseUrl()}/fhir`;
  const headerId = randomUUID();
  const entry = (resource: Resource): BundleEntry => ({ fullUrl: resource.resourceType === "Bundle" ? `urn:uuid:${resource.id}` : `${base}/${resource.resourceType}/${resource.id ?? randomUUID()}`, resource });
  const entries = [...(focus ? [focus] : []), ...others].map(entry);
  const header: MessageHeader = {
    resourceType: "MessageHeader",
    id: headerId,
    eventCoding: { system: NATIONAL_EXCHANGE.messageEventSystem, code: event },
    sender: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } },
    source: { endpoint: base },
    ...(answers ? { response: { identifier: answers, code } } : {}),
    ...(entries[0] ? { focus: [{ reference: entries[0].fullUrl! }] } : {}),
  };
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    ...(more ? { meta: { tag: [{ system: NATIONAL_EXCHANGE.metaTagSystem, code: QUEUED_MESSAGES_TAG }] } } : {}),
    type: "message",
    timestamp: new Date(ctx.clock.now()).toISOString(),
    entry: [{ fullUrl: `urn:uuid:${headerId}`, resource: header }, ...entries],
  };
}

const responseEvent = (record: ClaimRecord) => (record.use === "preauthorization" ? "priorauth-response" : "claim-response");

export function processMessage(
  body: Record<string, unknown>,
  providerOrgId: string,
  ctx: SandboxContext,
  limit: (event: string) => void,
  /** The licence of the certificate the message came over (a facility's, or the clinic's main one). */
  senderLicense: string | undefined = ctx.reference.provider.license,
): Reply {
  try {
    checkMessageRules(body);
  } catch (error) {
    if (error instanceof MessageBuildError) throw messageError(error.path, error.reason);
    throw error;
  }
  const bundle = body;
  const header = bundle.entry![0]!.resource as MessageHeader;
  const event = header.eventCoding!.code!;
  limit(event);
  if (header.sender!.identifier!.value !== senderLicense) {
    throw messageError("MessageHeader.sender.identifier", "the provider licence is not registered for this client certificate", "security");
  }
  const receiver = header.destination![0]!.receiver!.identifier!;
  const payer = receiver.system === NATIONAL_EXCHANGE.payerLicense ? ctx.reference.payers.find((p) => p.license === receiver.value) : undefined;
  if (receiver.system === NATIONAL_EXCHANGE.payerLicense && !payer) {
    throw messageError("MessageHeader.destination[0].receiver.identifier", `no payer has the licence '${receiver.value ?? ""}'`, "not-found");
  }
  const focus: Record<string, unknown> = { ...bundle.entry!.find((e) => e.fullUrl === header.focus![0]!.reference)!.resource };
  const expect = (type: string) => {
    if (focus.resourceType !== type) throw messageError("MessageHeader.focus", `${event} focuses a ${type}, not a ${String(focus.resourceType)}`);
  };

  switch (event) {
    case "eligibility-request": {
      expect("CoverageEligibilityRequest");
      const answer = eligibility(focus, providerOrgId, ctx);
      return fhirReply(200, replyBundle(ctx, "eligibility-response", header.id, answer.body as Resource));
    }
    case "priorauth-request":
    case "claim-request": {
      expect("Claim");
      if ((focus.use === "preauthorization") !== (event === "priorauth-request")) {
        throw messageError("Claim.use", `${event} carries a Claim with use ${event === "priorauth-request" ? "preauthorization" : "claim"}`);
      }
      const { id: _ignored, ...claim } = focus;
      void _ignored;
      const identifier = Array.isArray(claim.identifier) ? (claim.identifier[0] as { system?: string; value?: string } | undefined) : undefined;
      if (identifier?.value) ctx.store.recordReceipt(providerOrgId, identifier.system, identifier.value, new Date(ctx.clock.now()).toISOString());
      const v = validateClaim(claim, ctx.reference, providerOrgId);
      const coveragePayer = ctx.reference.payers.find((p) => p.id === v.coverage.payerId);
      if (coveragePayer?.license !== receiver.value) {
        throw messageError("MessageHeader.destination[0].receiver.identifier", "the message is addressed to another payer than the coverage's", "business-rule");
      }
      // A repeat (same business identifier) gets the stored reply: the claim's current answer.
      const record = ctx.store.findByIdentifier(identifierKey(providerOrgId, v.identifier.system, v.identifier.value)) ?? ctx.engine.submit(v, providerOrgId);
      delivered(ctx).add(key(record));
      return fhirReply(200, replyBundle(ctx, responseEvent(record), header.id, claimResponseOf(record, ctx)));
    }
    // NPHIES "Batch Claims": each inner claim-request is answered as if sent alone (a repeat gets
    // its stored reply); a refused one gets its own error reply, and never stops the others.
    case "batch-request": {
      const inner = bundle.entry!.slice(1).map((e) => e.resource as Bundle);
      const payers = new Set(inner.map((m) => (m.entry![0]!.resource as MessageHeader).destination?.[0]?.receiver?.identifier?.value));
      if (payers.size !== 1 || !payers.has(receiver.value)) throw messageError("Bundle.entry", "every claim of a batch is for the batch's payer", "business-rule");
      const replies = inner.map((message) => {
        const innerHeader = message.entry![0]!.resource as MessageHeader;
        try {
          return processMessage(message as unknown as Record<string, unknown>, providerOrgId, ctx, () => {}, senderLicense).body as Bundle;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const outcome = { resourceType: "OperationOutcome" as const, id: randomUUID(), issue: error.issues };
          return replyBundle(ctx, "claim-response", innerHeader.id, outcome, [], false, "fatal-error");
        }
      });
      return fhirReply(200, replyBundle(ctx, "batch-response", header.id, undefined, replies));
    }
    case "status-check": {
      expect("Task");
      const target = (focus.focus as { reference?: string } | undefined)?.reference ?? "";
      const record = ctx.store.getClaim(target.replace(/^.*Claim\//, ""));
      if (!record || record.providerOrgId !== providerOrgId) throw messageError("Task.focus", "no such claim", "not-found");
      const decided = record.status !== "queued" && record.status !== "pended";
      return fhirReply(200, replyBundle(ctx, "status-check-response", header.id, claimView(record), decided ? [claimResponseOf(record, ctx)] : []));
    }
    case "poll-request": {
      expect("Task");
      const inputs = Array.isArray(focus.input) ? (focus.input as { type?: { coding?: { code?: string }[] }; valuePositiveInt?: number }[]) : [];
      const count = inputs.find((i) => i.type?.coding?.some((c) => c.code === "count"))?.valuePositiveInt ?? MAX_MESSAGES_PER_POLL;
      if (count > MAX_MESSAGES_PER_POLL) throw messageError("Task.input[count]", `at most ${MAX_MESSAGES_PER_POLL} messages per poll`, "business-rule");
      const sent = delivered(ctx);
      // Late claim answers and the mailbox's resources (sandbox/mailbox.ts), oldest first, each once.
      type Waiting = { key: string; at: string; message: () => Bundle };
      const claims: Waiting[] = ctx.store
        .allClaims()
        .filter((r) => r.providerOrgId === providerOrgId && r.status !== "queued" && !sent.has(key(r)))
        .map((record) => ({ key: key(record), at: record.lastUpdated, message: () => replyBundle(ctx, responseEvent(record), undefined, claimResponseOf(record, ctx)) }));
      const mail: Waiting[] = ctx.mailbox
        .forClinic(providerOrgId)
        .filter((m) => !sent.has(`mail:${m.resourceType}/${m.id}`))
        .map((m) => ({ key: `mail:${m.resourceType}/${m.id}`, at: m.createdAt, message: () => replyBundle(ctx, m.event, undefined, m.resource) }));
      const waiting = [...claims, ...mail].sort((a, b) => a.at.localeCompare(b.at));
      const batch = waiting.slice(0, count);
      for (const w of batch) sent.add(w.key);
      const messages = batch.map((w) => w.message());
      const task = { resourceType: "Task" as const, id: randomUUID(), status: "completed" as const, intent: "order" as const, code: { coding: [{ system: NATIONAL_EXCHANGE.taskCodeSystem, code: "poll" }] } };
      return fhirReply(200, replyBundle(ctx, "poll-response", header.id, task, messages, waiting.length > batch.length));
    }
    // Issue 18: cancel / nullify and the answer to an information request (sandbox/information-requests.ts).
    case "cancel-request": {
      expect("Task");
      const task = cancelByTask(ctx, providerOrgId, focus);
      return fhirReply(200, replyBundle(ctx, "cancel-response", header.id, task as Resource));
    }
    case "communication": {
      expect("Communication");
      const stored = receiveCommunication(ctx, providerOrgId, focus);
      return fhirReply(200, replyBundle(ctx, "acknowledgement", header.id, stored as Resource));
    }
    case "payment-notice": {
      expect("PaymentNotice");
      try {
        receivePaymentNotice(ctx, providerOrgId, focus, "messaging");
      } catch (error) {
        if (error instanceof ApiError) throw messageError("PaymentNotice", error.issues[0]?.diagnostics ?? "invalid", "invalid");
        throw error;
      }
      // The exchange acknowledges: response.code ok, no focus.
      return fhirReply(200, replyBundle(ctx, "acknowledgement", header.id, undefined));
    }
    default:
      throw messageError("MessageHeader.eventCoding.code", `the sandbox does not handle ${event} yet`, "not-supported");
  }
}

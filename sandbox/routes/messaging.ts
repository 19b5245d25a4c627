import { ADVANCED_EVENTS } from "../advanced-authorizations";
import { randomUUID } from "node:crypto";
import type { Bundle, BundleEntry, MessageHeader, OperationOutcome, OperationOutcomeIssue, Resource, Task } from "@medplum/fhirtypes";
import { MAX_MESSAGES_PER_POLL, MessageBuildError, NATIONAL_EXCHANGE, QUEUED_MESSAGES_TAG, answerStatusCheck, checkMessageRules, nphies } from "../../lib/fhir";
import type { SandboxContext } from "../context";
import { ApiError, fhirReply, type Reply } from "../http";
import type { RateLimitGroup } from "../rate-limit";
import { identifierKey, type ClaimRecord } from "../store";
import { validateClaim } from "../validation";
import { receivePaymentNotice } from "../remittances";
import { claimResponseOf, eligibility } from "./fhir";
import { cancelByTask, claimOf, receiveCommunication } from "../information-requests";
import { readFocus } from "../message-reader";
import { messagingClaimResponse } from "../message-answers";
import { keepPrescribed } from "../prescriptions";
import { operationOutcome, refusalEvent, refusalResource, refusalsOfApiError, type Refusal } from "../refusals";
import { SANDBOX_ERROR_SYSTEM, strictCheck } from "../strict-rules";

/**
 * The national exchange's messaging protocol on `POST /$process-message` (docs/decisions/034), beside the
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

/** The exchange's profile on a resource the sandbox sends (its role follows the reply's event). */
function withProfile(resource: Resource, event: string): Resource {
  // An advanced authorization keeps its own profile (sandbox/advanced-authorizations.ts).
  if (ADVANCED_EVENTS.some((e) => e === event)) return resource;
  const role: nphies.ProfileRole | undefined = ({
    CoverageEligibilityResponse: "eligibilityResponse",
    ClaimResponse: event === "claim-response" ? "claimResponse" : "priorauthResponse",
    OperationOutcome: "operationOutcome",
    Communication: "communication",
    CommunicationRequest: "communicationRequest",
    PaymentReconciliation: "paymentReconciliation",
    Task: event === "poll-response" ? "pollResponse" : event === "cancel-response" ? "cancelResponse" : event === "status-check-response" ? "statusCheckResponse" : undefined,
  } as Record<string, nphies.ProfileRole | undefined>)[resource.resourceType];
  if (!role) return resource;
  return { ...resource, meta: { ...resource.meta, profile: [nphies.profileOf(role)] } } as Resource;
}

/** Who a reply goes to: the sending provider (its licence and endpoint). */
export interface ReplyTo {
  license: string | undefined;
  endpoint: string | undefined;
}

function replyBundle(
  ctx: SandboxContext,
  to: ReplyTo,
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
  const entries = [...(focus ? [withProfile(focus, event)] : []), ...others].map(entry);
  const header: MessageHeader = {
    resourceType: "MessageHeader",
    id: headerId,
    meta: { profile: [NATIONAL_EXCHANGE.messageHeaderProfile] },
    eventCoding: { system: NATIONAL_EXCHANGE.messageEventSystem, code: event },
    // Every reply names its receiver, as the exchange's do: the provider that sent the request.
    destination: [
      {
        endpoint: to.endpoint ?? `${NATIONAL_EXCHANGE.providerLicense}/${to.license ?? ctx.reference.provider.license ?? "unknown"}`,
        receiver: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.providerLicense, value: to.license ?? ctx.reference.provider.license ?? "unknown" } },
      },
    ],
    sender: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } },
    source: { endpoint: base },
    ...(answers ? { response: { identifier: answers, code } } : {}),
    ...(entries[0] ? { focus: [{ reference: entries[0].fullUrl! }] } : {}),
  };
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    meta: { profile: [NATIONAL_EXCHANGE.bundleProfile], ...(more ? { tag: [{ system: NATIONAL_EXCHANGE.metaTagSystem, code: QUEUED_MESSAGES_TAG }] } : {}) },
    type: "message",
    timestamp: new Date(ctx.clock.now()).toISOString(),
    entry: [{ fullUrl: `urn:uuid:${headerId}`, resource: header }, ...entries],
  };
}

const responseEvent = (record: ClaimRecord) => (record.use === "preauthorization" ? "priorauth-response" : "claim-response");

/** The request message's header id a claim's late answers respond to (poll deliveries), by claim id. */
const requestHeaderOf = new WeakMap<SandboxContext, Map<string, string>>();
function requestHeaders(ctx: SandboxContext): Map<string, string> {
  let map = requestHeaderOf.get(ctx);
  if (!map) requestHeaderOf.set(ctx, (map = new Map()));
  return map;
}

/** Message types a poll asks for (Task.input include-/exclude-message-type); undefined = all. */
function pollFilter(inputs: { type?: { coding?: { code?: string }[] }; valueCode?: string }[]): (event: string) => boolean {
  const codes = (kind: string) => inputs.filter((i) => i.type?.coding?.some((c) => c.code === kind)).map((i) => i.valueCode).filter((c): c is string => typeof c === "string");
  const include = codes("include-message-type");
  const exclude = codes("exclude-message-type");
  return (event) => (include.length === 0 || include.includes(event)) && !exclude.includes(event);
}

export function processMessage(
  body: Record<string, unknown>,
  providerOrgId: string,
  ctx: SandboxContext,
  limit: (event: string) => void,
  /** The licence of the certificate the message came over (a facility's, or the clinic's main one). */
  senderLicense: string | undefined = ctx.reference.provider.license,
): Reply {
  // Strict (docs/decisions/072): the exchange's rules first — a message without a usable envelope
  // is answered with an OperationOutcome naming the rule, the others once the focus is read.
  const checked = strictCheck(body, ctx, senderLicense);
  const strict = ctx.conformance === "strict" ? checked : undefined;
  if (strict?.envelope) throw new ApiError(400, (operationOutcome(strict.refusals) as OperationOutcome).issue ?? []);
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
  const to: ReplyTo = { license: header.sender!.identifier!.value, endpoint: header.source?.endpoint };
  const receiver = header.destination![0]!.receiver!.identifier!;
  const payer = receiver.system === NATIONAL_EXCHANGE.payerLicense ? ctx.reference.payers.find((p) => p.license === receiver.value) : undefined;
  if (receiver.system === NATIONAL_EXCHANGE.payerLicense && !payer) {
    throw messageError("MessageHeader.destination[0].receiver.identifier", `no payer has the licence '${receiver.value ?? ""}'`, "not-found");
  }
  const entries = bundle.entry as unknown as { fullUrl?: string; resource?: Record<string, unknown> }[];
  const focusFullUrl = header.focus![0]!.reference!;
  const raw = entries.find((e) => e.fullUrl === focusFullUrl)!.resource!;
  // Every reference form R4 allows, read into the sandbox's own dialect (sandbox/message-reader.ts).
  const { focus } = readFocus({ ctx, providerOrgId, senderLicense, bundle, focusFullUrl }, raw);
  const expect = (type: string) => {
    if (focus.resourceType !== type) throw messageError("MessageHeader.focus", `${event} focuses a ${type}, not a ${String(focus.resourceType)}`);
  };
  const answer = (event: string, resource: Resource | undefined, others: Resource[] = []) => fhirReply(200, replyBundle(ctx, to, event, header.id, resource, others));
  // A readable message with invalid content: the event's business answer carrying the errors.
  const refuse = (refusals: Refusal[]) => {
    const resource = refusalResource(event, raw, refusals, new Date(ctx.clock.now()).toISOString());
    return fhirReply(200, replyBundle(ctx, to, refusalEvent(event), header.id, resource, [], false, resource.resourceType === "OperationOutcome" ? "fatal-error" : "ok"));
  };
  if (strict && strict.refusals.length > 0) return refuse(strict.refusals);
  try {
    return handleEvent();
  } catch (error) {
    // Strict: the engine's own refusals (unknown coverage, codes …) in the exchange's form too.
    if (ctx.conformance === "strict" && error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
      return refuse(refusalsOfApiError(error, SANDBOX_ERROR_SYSTEM));
    }
    throw error;
  }

  function handleEvent(): Reply {
  switch (event) {
    case "eligibility-request": {
      expect("CoverageEligibilityRequest");
      const reply = eligibility(focus, providerOrgId, ctx, "messaging", { raw, providerLicense: senderLicense });
      return answer("eligibility-response", reply.body as Resource);
    }
    case "priorauth-request":
    case "prescriber-request":
    case "claim-request": {
      expect("Claim");
      const wantsPreauth = event !== "claim-request";
      if ((focus.use === "preauthorization" || (event === "prescriber-request" && focus.use === "predetermination")) !== wantsPreauth) {
        throw messageError("Claim.use", `${event} carries a Claim with use ${wantsPreauth ? "preauthorization" : "claim"}`);
      }
      const { id: _ignored, ...claim } = focus;
      void _ignored;
      // A prescriber's request is answered at once, as an authorization is (docs/decisions/071),
      // and keeps what it prescribed: the refills asked are answered with every later answer too.
      let received: Record<string, unknown> = claim;
      if (event === "prescriber-request") {
        const index = nphies.indexMessage(bundle);
        const from = index.entries.find((e) => e.resource === focus);
        received = keepPrescribed({ ...claim, use: "preauthorization" }, (reference) => {
          const found = nphies.resolveReference(index, reference, from);
          return found.kind === "entry" ? found.entry.resource : undefined;
        });
      }
      const identifier = Array.isArray(claim.identifier) ? (claim.identifier[0] as { system?: string; value?: string } | undefined) : undefined;
      if (identifier?.value) ctx.store.recordReceipt(providerOrgId, identifier.system, identifier.value, new Date(ctx.clock.now()).toISOString());
      const v = validateClaim(received, ctx.reference, providerOrgId);
      const coveragePayer = ctx.reference.payers.find((p) => p.id === v.coverage.payerId);
      if (coveragePayer?.license !== receiver.value) {
        throw messageError("MessageHeader.destination[0].receiver.identifier", "the message is addressed to another payer than the coverage's", "business-rule");
      }
      // A repeat (same business identifier) gets the stored reply: the claim's current answer.
      const record = ctx.store.findByIdentifier(identifierKey(providerOrgId, v.identifier.system, v.identifier.value)) ?? ctx.engine.submit(v, providerOrgId);
      delivered(ctx).add(key(record));
      if (header.id) requestHeaders(ctx).set(record.id, header.id);
      const replyEvent = event === "prescriber-request" ? "prescriber-response" : responseEvent(record);
      return answer(replyEvent, messagingClaimResponse(record, ctx, claimResponseOf(record, ctx, "messaging")));
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
          return replyBundle(ctx, to, "claim-response", innerHeader.id, outcome, [], false, "fatal-error");
        }
      });
      return answer("batch-response", undefined, replies);
    }
    // The status check as the exchange does it (decision 073): Task code `status`, focus by the
    // clinic's identifier (or, for older clients, by reference); the answer in Task.output.
    case "status-check": {
      expect("Task");
      const task = focus as unknown as Task;
      const record = claimOf(ctx, providerOrgId, task.focus as never);
      if (!record) throw messageError("Task.focus", "no such claim", "not-found");
      const decided = record.status !== "queued" && record.status !== "pended";
      const response = decided ? (messagingClaimResponse(record, ctx, claimResponseOf(record, ctx, "messaging")) as Resource) : undefined;
      const responseUrl = response ? `${ctx.baseUrl()}/fhir/ClaimResponse/${response.id}` : undefined;
      const result = answerStatusCheck(task, new Date(ctx.clock.now()), record.status, responseUrl);
      return answer("status-check-response", result, response ? [response] : []);
    }
    case "poll-request": {
      expect("Task");
      // The same poll-request again (the clinic lost our reply): the same reply (guide 6.4).
      const last = ctx.pollReplies.get(providerOrgId);
      if (last && header.id && last.headerId === header.id) return last.reply;
      const inputs = Array.isArray(focus.input) ? (focus.input as { type?: { coding?: { code?: string }[] }; valuePositiveInt?: number; valueCode?: string }[]) : [];
      const count = inputs.find((i) => i.type?.coding?.some((c) => c.code === "count"))?.valuePositiveInt ?? MAX_MESSAGES_PER_POLL;
      if (count > MAX_MESSAGES_PER_POLL) throw messageError("Task.input[count]", `at most ${MAX_MESSAGES_PER_POLL} messages per poll`, "business-rule");
      const wanted = pollFilter(inputs);
      const sent = delivered(ctx);
      // Late claim answers and the mailbox's resources, oldest first, each once — of the types asked for.
      type Waiting = { key: string; at: string; message: () => Bundle };
      const claims: Waiting[] = ctx.store
        .allClaims()
        .filter((r) => r.providerOrgId === providerOrgId && r.status !== "queued" && !sent.has(key(r)) && wanted(responseEvent(r)))
        .map((record) => ({
          key: key(record),
          at: record.lastUpdated,
          message: () => replyBundle(ctx, to, responseEvent(record), requestHeaders(ctx).get(record.id), messagingClaimResponse(record, ctx, claimResponseOf(record, ctx, "messaging"))),
        }));
      const mail: Waiting[] = ctx.mailbox
        .forClinic(providerOrgId)
        .filter((m) => !sent.has(`mail:${m.resourceType}/${m.id}`) && wanted(m.event))
        .map((m) => ({ key: `mail:${m.resourceType}/${m.id}`, at: m.createdAt, message: () => (m.raw ? (m.raw as unknown as Bundle) : replyBundle(ctx, to, m.event, undefined, m.resource)) }));
      const waiting = [...claims, ...mail].sort((a, b) => a.at.localeCompare(b.at));
      const batch = waiting.slice(0, count);
      for (const w of batch) sent.add(w.key);
      const messages = batch.map((w) => w.message());
      const task = { resourceType: "Task" as const, id: randomUUID(), status: "completed" as const, intent: "order" as const, code: { coding: [{ system: NATIONAL_EXCHANGE.taskCodeSystem, code: "poll" }] } };
      const reply = fhirReply(200, replyBundle(ctx, to, "poll-response", header.id, task, messages, waiting.length > batch.length));
      if (header.id) ctx.pollReplies.set(providerOrgId, { headerId: header.id, reply });
      return reply;
    }
    // Decision 045: cancel / nullify and the answer to an information request (sandbox/information-requests.ts).
    case "cancel-request": {
      expect("Task");
      const task = cancelByTask(ctx, providerOrgId, focus);
      return answer("cancel-response", task as Resource);
    }
    case "communication": {
      expect("Communication");
      const stored = receiveCommunication(ctx, providerOrgId, focus);
      return answer("acknowledgement", stored as Resource);
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
      return answer("acknowledgement", undefined);
    }
    default:
      throw messageError("MessageHeader.eventCoding.code", `the sandbox does not handle ${event} yet`, "not-supported");
  }
  }
}

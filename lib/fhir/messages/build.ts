import type { Bundle, BundleEntry, Claim, MessageHeader, Organization, Reference, Resource } from "@medplum/fhirtypes";
import { MESSAGE_REQUEST_EVENTS, NATIONAL_EXCHANGE, type MessageRequestEvent } from "../systems";
import { checkStructure } from "../read/structure";
import { assertMessageSize } from "./size";

/**
 * The strict writer of the national exchange's message Bundles (decision 034; NPHIES implementation
 * guide): `Bundle.type = message`, the MessageHeader first, every entry with a `fullUrl`, the
 * header's `focus` exactly the main resource's `fullUrl`, `eventCoding` from ksa-message-events,
 * the sender the provider's licence, the destination the payer's licence — or the exchange itself
 * for polls and payment notices. Anything else throws a MessageBuildError naming the rule: a
 * message we cannot build correctly is never sent.
 */

/** A message the portal would not send, with the rule it breaks and the path concerned. */
export class MessageBuildError extends Error {
  override name = "MessageBuildError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** The exchange takes at most 200 claims in one batch-request. */
export const MAX_CLAIMS_PER_BATCH = 200;

/** Events addressed to the exchange itself rather than to a payer. */
const TO_EXCHANGE: ReadonlySet<MessageRequestEvent> = new Set(["poll-request", "payment-notice"]);

export type MessageDestination = { payerLicense: string } | { exchange: true };

export interface MessageInput {
  event: MessageRequestEvent;
  /** The main resource (Claim, CoverageEligibilityRequest, Task, Communication, PaymentNotice …). */
  focus: Resource;
  /** Every other resource the focus refers to and the exchange needs (Patient, Coverage, Organization …). */
  resources?: Resource[];
  /** The sending facility's provider licence (`http://nphies.sa/license/provider-license`). */
  providerLicense: string;
  destination: MessageDestination;
  /** Base of the sender's RESTful fullUrls and `MessageHeader.source.endpoint`. */
  sourceEndpoint: string;
  /** Fixed ids (a resend uses the stored ones); fresh UUIDs otherwise. */
  bundleId?: string;
  headerId?: string;
  timestamp: Date;
}

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const LICENSE = /^[A-Za-z0-9\-._]{1,64}$/;

export interface BuiltMessage {
  bundle: Bundle;
  bundleId: string;
  headerId: string;
  /** `fullUrl` of the focus entry (= `MessageHeader.focus[0].reference`). */
  focusFullUrl: string;
  /** Serialized size in bytes (UTF-8), checked against the exchange's 10 MB limit. */
  bytes: number;
}

function fullUrlOf(base: string, resource: Resource): string {
  return `${base}/${resource.resourceType}/${resource.id}`;
}

/** Builds and checks one message Bundle; throws MessageBuildError or MessageTooLargeError. */
export function buildMessage(input: MessageInput): BuiltMessage {
  if (!(MESSAGE_REQUEST_EVENTS as readonly string[]).includes(input.event)) {
    throw new MessageBuildError("MessageHeader.eventCoding", `"${String(input.event)}" is not an event the portal sends (ksa-message-events)`);
  }
  if (!LICENSE.test(input.providerLicense)) throw new MessageBuildError("MessageHeader.sender", "the provider licence is missing or malformed");
  const toExchange = "exchange" in input.destination;
  if (TO_EXCHANGE.has(input.event) !== toExchange) {
    throw new MessageBuildError(
      "MessageHeader.destination",
      TO_EXCHANGE.has(input.event) ? `${input.event} goes to the exchange, not to a payer` : `${input.event} goes to a payer: its licence is needed`,
    );
  }
  if (!toExchange && !LICENSE.test((input.destination as { payerLicense: string }).payerLicense ?? "")) {
    throw new MessageBuildError("MessageHeader.destination", "the payer licence is missing or malformed (insurers.license)");
  }
  const base = input.sourceEndpoint.replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s]+$/.test(base)) throw new MessageBuildError("MessageHeader.source.endpoint", "must be an http(s) URL");

  const bundleId = input.bundleId ?? crypto.randomUUID();
  const headerId = input.headerId ?? crypto.randomUUID();
  for (const [path, id] of [["Bundle.id", bundleId], ["MessageHeader.id", headerId]] as const) {
    if (!FHIR_ID.test(id)) throw new MessageBuildError(path, "must be a FHIR id");
  }

  const resources = [input.focus, ...(input.resources ?? [])].map((resource, i) => {
    const path = i === 0 ? "focus" : `resources[${i - 1}]`;
    if (!resource || typeof resource.resourceType !== "string") throw new MessageBuildError(path, "is not a resource");
    if (resource.resourceType === "MessageHeader" || resource.resourceType === "Bundle") {
      throw new MessageBuildError(path, `a ${resource.resourceType} cannot be a message's content`);
    }
    if (resource.id !== undefined && !FHIR_ID.test(resource.id)) throw new MessageBuildError(`${path}.id`, "must be a FHIR id");
    return resource.id === undefined ? { ...resource, id: crypto.randomUUID() } : resource;
  });
  const entries: BundleEntry[] = resources.map((resource) => ({ fullUrl: fullUrlOf(base, resource), resource }));
  const seen = new Set<string>();
  for (const [i, entry] of entries.entries()) {
    if (seen.has(entry.fullUrl!)) throw new MessageBuildError(`Bundle.entry[${i + 1}].fullUrl`, "two entries share one fullUrl");
    seen.add(entry.fullUrl!);
  }
  const focusFullUrl = entries[0]!.fullUrl!;

  const receiver: Reference<Organization> = toExchange
    ? { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } }
    : { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: (input.destination as { payerLicense: string }).payerLicense } };
  const header: MessageHeader = {
    resourceType: "MessageHeader",
    id: headerId,
    meta: { profile: [NATIONAL_EXCHANGE.messageHeaderProfile] },
    eventCoding: { system: NATIONAL_EXCHANGE.messageEventSystem, code: input.event },
    destination: [
      {
        endpoint: `${receiver.identifier!.system}/${receiver.identifier!.value}`,
        receiver,
      },
    ],
    sender: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.providerLicense, value: input.providerLicense } },
    source: { endpoint: base },
    focus: [{ reference: focusFullUrl }],
  };
  return seal({ bundleId, header, entries, timestamp: input.timestamp, focusFullUrl });
}

/**
 * The envelope around a header and its entries, checked before anything leaves: the exchange's
 * rules, strict R4 (the structure checker's tolerated departures — unknown members, empty strings —
 * are refusals here) and the 10 MB limit.
 */
function seal(m: { bundleId: string; header: MessageHeader; entries: BundleEntry[]; timestamp: Date; focusFullUrl: string }): BuiltMessage {
  const bundle: Bundle = {
    resourceType: "Bundle",
    id: m.bundleId,
    meta: { profile: [NATIONAL_EXCHANGE.bundleProfile] },
    type: "message",
    timestamp: m.timestamp.toISOString(),
    entry: [{ fullUrl: `urn:uuid:${m.header.id!}`, resource: m.header }, ...m.entries],
  };
  checkMessageRules(bundle);
  let notes: string[];
  try {
    notes = checkStructure(bundle, "Bundle").notes;
  } catch (error) {
    const e = error as { path?: string; reason?: string };
    throw new MessageBuildError(e.path ?? "Bundle", e.reason ?? "not valid R4");
  }
  if (notes.length > 0) throw new MessageBuildError("Bundle", `not strict R4: ${notes.slice(0, 3).join("; ")}`);
  const bytes = assertMessageSize(bundle);
  return { bundle, bundleId: m.bundleId, headerId: m.header.id!, focusFullUrl: m.focusFullUrl, bytes };
}

export interface BatchInput {
  /** The claim-request messages of the batch (built by buildMessage), all to the same payer. */
  messages: readonly BuiltMessage[];
  providerLicense: string;
  payerLicense: string;
  sourceEndpoint: string;
  bundleId?: string;
  headerId?: string;
  timestamp: Date;
}

/**
 * A batch-request (NPHIES "Batch Claims"): one message whose entries are the claim-request
 * messages themselves, each a whole message Bundle (header first …) as it would be sent alone, so
 * the exchange answers each as it would a single claim. The header's focus names every inner
 * message. At most 200 claims, one payer, within the 10 MB limit — or a MessageBuildError /
 * MessageTooLargeError, and nothing is sent.
 */
export function buildBatchMessage(input: BatchInput): BuiltMessage {
  if (input.messages.length === 0) throw new MessageBuildError("Bundle.entry", "a batch needs at least one claim");
  if (input.messages.length > MAX_CLAIMS_PER_BATCH) throw new MessageBuildError("Bundle.entry", `at most ${MAX_CLAIMS_PER_BATCH} claims in one batch-request`);
  if (!LICENSE.test(input.providerLicense)) throw new MessageBuildError("MessageHeader.sender", "the provider licence is missing or malformed");
  if (!LICENSE.test(input.payerLicense)) throw new MessageBuildError("MessageHeader.destination", "the payer licence is missing or malformed (insurers.license)");
  const base = input.sourceEndpoint.replace(/\/+$/, "");
  const bundleId = input.bundleId ?? crypto.randomUUID();
  const headerId = input.headerId ?? crypto.randomUUID();
  const entries: BundleEntry[] = input.messages.map((m) => ({ fullUrl: `urn:uuid:${m.bundleId}`, resource: m.bundle }));
  const header: MessageHeader = {
    resourceType: "MessageHeader",
    id: headerId,
    meta: { profile: [NATIONAL_EXCHANGE.messageHeaderProfile] },
    eventCoding: { system: NATIONAL_EXCHANGE.messageEventSystem, code: "batch-request" },
    destination: [
      {
        endpoint: `${NATIONAL_EXCHANGE.payerLicense}/${input.payerLicense}`,
        receiver: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: input.payerLicense } },
      },
    ],
    sender: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.providerLicense, value: input.providerLicense } },
    source: { endpoint: base },
    focus: entries.map((e) => ({ reference: e.fullUrl! })),
  };
  return seal({ bundleId, header, entries, timestamp: input.timestamp, focusFullUrl: entries[0]!.fullUrl! });
}

/** A Claim marked as the `number`-th (1-based) of batch `batchId` covering `period`. */
export function claimInBatch(claim: Claim, batch: { id: string; system: string; number: number; period: { start: string; end: string } }): Claim {
  const own = new Set<string>([NATIONAL_EXCHANGE.batchIdentifierExtension, NATIONAL_EXCHANGE.batchNumberExtension, NATIONAL_EXCHANGE.batchPeriodExtension]);
  return {
    ...claim,
    extension: [
      ...(claim.extension ?? []).filter((e) => !own.has(e.url)),
      { url: NATIONAL_EXCHANGE.batchIdentifierExtension, valueIdentifier: { system: batch.system, value: batch.id } },
      { url: NATIONAL_EXCHANGE.batchNumberExtension, valuePositiveInt: batch.number },
      { url: NATIONAL_EXCHANGE.batchPeriodExtension, valuePeriod: batch.period },
    ],
  };
}

/**
 * The envelope rules the exchange enforces, checked on any message Bundle (ours before sending; the
 * sandbox uses the same function on what it receives). Throws MessageBuildError naming the path.
 */
export function checkMessageRules(bundle: unknown): asserts bundle is Bundle {
  const b = bundle as Partial<Bundle> | null;
  if (!b || b.resourceType !== "Bundle") throw new MessageBuildError("Bundle", "expected a Bundle");
  if (b.type !== "message") throw new MessageBuildError("Bundle.type", `must be "message"`);
  if (typeof b.id !== "string" || !FHIR_ID.test(b.id)) throw new MessageBuildError("Bundle.id", "a message needs an id (it makes resends idempotent)");
  if (typeof b.timestamp !== "string") throw new MessageBuildError("Bundle.timestamp", "a message needs a timestamp");
  const entries = Array.isArray(b.entry) ? b.entry : [];
  if (entries.length === 0) throw new MessageBuildError("Bundle.entry", "a message has at least its MessageHeader");
  const header = entries[0]?.resource as MessageHeader | undefined;
  if (header?.resourceType !== "MessageHeader") throw new MessageBuildError("Bundle.entry[0].resource", "the MessageHeader must come first");
  for (const [i, entry] of entries.entries()) {
    if (typeof entry?.fullUrl !== "string" || entry.fullUrl === "") throw new MessageBuildError(`Bundle.entry[${i}].fullUrl`, "every entry needs a fullUrl");
    if (i > 0 && entry.resource?.resourceType === "MessageHeader") throw new MessageBuildError(`Bundle.entry[${i}].resource`, "a message has one MessageHeader");
  }
  if (typeof header.id !== "string" || !FHIR_ID.test(header.id)) throw new MessageBuildError("MessageHeader.id", "a message header needs an id (replies are matched by it)");
  const event = header.eventCoding;
  if (event?.system !== NATIONAL_EXCHANGE.messageEventSystem) throw new MessageBuildError("MessageHeader.eventCoding.system", `must be ${NATIONAL_EXCHANGE.messageEventSystem}`);
  if (!(MESSAGE_REQUEST_EVENTS as readonly string[]).includes(event.code ?? "")) {
    throw new MessageBuildError("MessageHeader.eventCoding.code", `"${event.code ?? ""}" is not a request event`);
  }
  if (header.sender?.identifier?.system !== NATIONAL_EXCHANGE.providerLicense || !header.sender.identifier.value) {
    throw new MessageBuildError("MessageHeader.sender.identifier", "must be the provider's licence (provider-license)");
  }
  const receiver = header.destination?.[0]?.receiver?.identifier;
  const toExchange = TO_EXCHANGE.has(event.code as MessageRequestEvent);
  const expected = toExchange ? NATIONAL_EXCHANGE.exchangeLicense : NATIONAL_EXCHANGE.payerLicense;
  if (header.destination?.length !== 1 || receiver?.system !== expected || !receiver.value) {
    throw new MessageBuildError("MessageHeader.destination[0].receiver.identifier", `must be one destination identified by ${toExchange ? "the exchange's licence" : "the payer's licence (payer-license)"}`);
  }
  const focus = header.focus ?? [];
  if (event.code === "batch-request") return checkBatchRules(entries, focus, receiver.value);
  if (focus.length !== 1 || typeof focus[0]?.reference !== "string") throw new MessageBuildError("MessageHeader.focus", "exactly one focus reference");
  const target = entries.findIndex((e, i) => i > 0 && e.fullUrl === focus[0]!.reference);
  if (target < 0) throw new MessageBuildError("MessageHeader.focus[0].reference", "must be exactly the fullUrl of an entry of the message");
}

/** A batch-request: its focus names each inner claim-request message, all to the batch's payer, at most 200. */
function checkBatchRules(entries: BundleEntry[], focus: Reference[], payerLicense: string): void {
  const inner = entries.slice(1);
  if (inner.length === 0) throw new MessageBuildError("Bundle.entry", "a batch-request carries at least one claim-request message");
  if (inner.length > MAX_CLAIMS_PER_BATCH) throw new MessageBuildError("Bundle.entry", `at most ${MAX_CLAIMS_PER_BATCH} claims in one batch-request`);
  if (focus.length !== inner.length) throw new MessageBuildError("MessageHeader.focus", "a batch-request's focus names each of its messages");
  for (const [i, entry] of inner.entries()) {
    const path = `Bundle.entry[${i + 1}]`;
    if (focus[i]?.reference !== entry.fullUrl) throw new MessageBuildError(`MessageHeader.focus[${i}].reference`, `must be the fullUrl of ${path}`);
    if (entry.resource?.resourceType !== "Bundle") throw new MessageBuildError(`${path}.resource`, "each entry of a batch-request is a claim-request message Bundle");
    try {
      checkMessageRules(entry.resource);
    } catch (error) {
      if (error instanceof MessageBuildError) throw new MessageBuildError(`${path}.resource.${error.path}`, error.reason);
      throw error;
    }
    const innerHeader = entry.resource.entry![0]!.resource as MessageHeader;
    if (innerHeader.eventCoding?.code !== "claim-request") throw new MessageBuildError(`${path}.resource`, "a batch carries claim-request messages only");
    if (innerHeader.destination?.[0]?.receiver?.identifier?.value !== payerLicense) {
      throw new MessageBuildError(`${path}.resource`, "every claim of a batch is for the batch's payer");
    }
  }
}

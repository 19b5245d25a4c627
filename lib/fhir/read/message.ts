import type { Bundle } from "@medplum/fhirtypes";
import { NATIONAL_EXCHANGE, QUEUED_MESSAGES_TAG } from "../systems";
import { readBundle, type BundleEntryView } from "./bundle";
import { FhirReadError, type Read } from "./errors";
import { readIdentifier, type IdentifierView } from "./reference";
import { isObject, list, readCoded, text, type CodedView } from "./values";

/**
 * Reader of the national exchange's message Bundles (replies to `$process-message` and poll
 * replies). Liberal as every reader: the MessageHeader is looked for anywhere in the Bundle (the
 * rules say first; a reply that breaks that is still understood), any R4 is accepted, and nested
 * message Bundles (a poll reply's messages) are read recursively.
 */

export interface MessageErrorView {
  /** Where the error came from. */
  source: "OperationOutcome" | "ClaimResponse" | "CoverageEligibilityResponse" | "Task";
  code?: string;
  system?: string;
  /** The element concerned (FHIRPath), when the error names one. */
  element?: string;
  /** The exchange's words (display, text or diagnostics). */
  words?: string;
  severity?: string;
}

export interface MessageHeaderView {
  id?: string;
  event?: string;
  eventSystem?: string;
  /** `response.identifier`: the id of the MessageHeader this message answers. */
  responseTo?: string;
  /** `response.code`: ok | transient-error | fatal-error. */
  responseCode?: string;
  senderLicense?: IdentifierView;
  /** `focus[].reference` as given. */
  focus: string[];
}

export interface MessageView {
  bundleId?: string;
  timestamp?: string;
  header: MessageHeaderView;
  /** The focus resources, resolved by fullUrl (or by type/id), as received. */
  focus: Record<string, unknown>[];
  entries: BundleEntryView[];
  /** The `queued-messages` meta tag: more messages wait at the exchange. */
  queuedMessages: boolean;
  /** Message Bundles inside this one (a poll reply's messages) that read as R4 messages, read the same way. */
  messages: MessageView[];
  /**
   * Every message Bundle inside this one, in order, each read on its own: its view, or the reason
   * it could not be read. One malformed message never makes the others (or the reply) unreadable.
   */
  parts: MessagePart[];
  /** Errors of the message: OperationOutcome issues, error[] of responses, Task outputs of type error. */
  errors: MessageErrorView[];
  notes: string[];
}

/** One message inside a reply (a poll reply's entry), kept whole with its view or its read error. */
export interface MessagePart {
  /** The entry's index in the reply. */
  index: number;
  /** The message Bundle exactly as received. */
  raw: Record<string, unknown>;
  /** Its text as it arrived in the reply, byte for byte, when the transport kept the reply's text (json-text.ts). */
  text?: string;
  view?: MessageView;
  /** Why it could not be read (FhirReadError path and reason; never the offending value). */
  error?: { path: string; reason: string };
}

function hasQueuedTag(resource: unknown): boolean {
  const meta = isObject(resource) && isObject(resource.meta) ? resource.meta : undefined;
  return list(meta?.tag).some((t) => t.code === QUEUED_MESSAGES_TAG && (t.system === undefined || t.system === NATIONAL_EXCHANGE.metaTagSystem));
}

function words(coded: CodedView | undefined): string | undefined {
  return coded?.display ?? coded?.text;
}

/** The errors a resource of a reply carries, in one shape. */
export function messageErrorsOf(resource: Record<string, unknown>): MessageErrorView[] {
  switch (resource.resourceType) {
    case "OperationOutcome":
      return list(resource.issue)
        .filter((i) => i.severity === "error" || i.severity === "fatal")
        .map((issue) => {
          const details = readCoded(issue.details);
          const expression = (Array.isArray(issue.expression) ? issue.expression : []).find((e): e is string => typeof e === "string");
          return {
            source: "OperationOutcome" as const,
            severity: String(issue.severity),
            ...(details?.code ? { code: details.code } : { code: String(issue.code) }),
            ...(details?.system ? { system: details.system } : {}),
            ...(expression ? { element: expression } : {}),
            ...(text(issue.diagnostics) ? { words: issue.diagnostics as string } : words(details) ? { words: words(details) } : {}),
          };
        });
    case "ClaimResponse":
    case "CoverageEligibilityResponse":
      return list(resource.error).map((error) => {
        const code = readCoded(error.code);
        // The exchange names the element in an expression extension; HL7 gives item sequences.
        const expression = list(error.extension).find((e) => typeof e.valueString === "string" && /expression/i.test(String(e.url)))?.valueString as string | undefined;
        const item = typeof error.itemSequence === "number" ? `Claim.item[${error.itemSequence - 1}]` : undefined;
        const element = expression ?? item;
        return {
          source: resource.resourceType as "ClaimResponse" | "CoverageEligibilityResponse",
          ...(code?.code ? { code: code.code } : {}),
          ...(code?.system ? { system: code.system } : {}),
          ...(element ? { element } : {}),
          ...(words(code) ? { words: words(code) } : {}),
        };
      });
    case "Task":
      return list(resource.output)
        .filter((o) => list(isObject(o.type) ? o.type.coding : []).some((c) => c.code === "error"))
        .map((output) => {
          const value = readCoded(output.valueCodeableConcept);
          const valueText = text(output.valueString);
          return {
            source: "Task" as const,
            ...(value?.code ? { code: value.code } : {}),
            ...(value?.system ? { system: value.system } : {}),
            ...(words(value) ?? valueText ? { words: words(value) ?? valueText } : {}),
          };
        });
    default:
      return [];
  }
}

function readMessageJson(json: unknown, path: string): Read<MessageView, Bundle> {
  // Nested message Bundles are set aside and read one by one below, so the structure check of the
  // envelope never fails for one malformed message among many (docs/decisions/096).
  const nested = new Map<number, Record<string, unknown>>();
  let envelope: unknown = json;
  if (isObject(json) && Array.isArray(json.entry)) {
    const kept: unknown[] = [];
    json.entry.forEach((e: unknown, i: number) => {
      if (isObject(e) && isObject(e.resource) && e.resource.resourceType === "Bundle") nested.set(i, e);
      else kept.push(e);
    });
    if (nested.size > 0) envelope = { ...json, entry: kept };
  }
  let read: ReturnType<typeof readBundle>;
  try {
    read = readBundle(envelope);
  } catch (error) {
    if (error instanceof FhirReadError && path !== "Bundle") throw new FhirReadError(`${path}.${error.path.replace(/^Bundle\.?/, "")}`, error.reason);
    throw error;
  }
  const raw = json as Bundle;
  const bundle = { ...read.view, entries: [...read.view.entries] };
  // The set-aside messages back in their places (as received), so entry indexes stay the reply's.
  for (const [i, e] of [...nested.entries()].sort((a, b) => a[0] - b[0])) {
    const resource = e.resource as Record<string, unknown>;
    bundle.entries.splice(i, 0, { ...(text(e.fullUrl) ? { fullUrl: e.fullUrl as string } : {}), resourceType: "Bundle", resource });
  }
  if (bundle.type !== "message") throw new FhirReadError(`${path}.type`, `expected a message Bundle, got "${bundle.type}"`);
  const headerEntry = bundle.entries.find((e) => e.resourceType === "MessageHeader");
  if (!headerEntry?.resource) throw new FhirReadError(`${path}.entry`, "a message Bundle without a MessageHeader");
  const h = headerEntry.resource;
  const event = isObject(h.eventCoding) ? h.eventCoding : undefined;
  const response = isObject(h.response) ? h.response : undefined;
  const sender = isObject(h.sender) && isObject(h.sender.identifier) ? readIdentifier(h.sender.identifier) : undefined;
  const header: MessageHeaderView = {
    focus: list(h.focus).flatMap((f) => (text(f.reference) ? [f.reference as string] : [])),
    ...(text(h.id) ? { id: h.id as string } : {}),
    ...(text(event?.code) ? { event: event!.code as string } : {}),
    ...(text(event?.system) ? { eventSystem: event!.system as string } : {}),
    ...(text(response?.identifier) ? { responseTo: response!.identifier as string } : {}),
    ...(text(response?.code) ? { responseCode: response!.code as string } : {}),
    ...(sender ? { senderLicense: sender } : {}),
  };
  const focus = header.focus.flatMap((ref) => {
    const byUrl = bundle.entries.find((e) => e.fullUrl === ref);
    const byId = byUrl ?? bundle.entries.find((e) => e.resource && `${e.resourceType}/${String(e.resource.id)}` === ref.split("/").slice(-2).join("/"));
    return byId?.resource ? [byId.resource] : [];
  });
  const messages: MessageView[] = [];
  const parts: MessagePart[] = [];
  const errors: MessageErrorView[] = [];
  const notes = [...bundle.notes];
  if (headerEntry !== bundle.entries[0]) notes.push(`${path}.entry[0]: the MessageHeader is not first`);
  bundle.entries.forEach((entry, i) => {
    if (!entry.resource) return;
    if (entry.resourceType === "Bundle") {
      try {
        const view = readMessageJson(entry.resource, `${path}.entry[${i}].resource`).view;
        messages.push(view);
        parts.push({ index: i, raw: entry.resource, view });
      } catch (error) {
        if (!(error instanceof FhirReadError)) throw error;
        parts.push({ index: i, raw: entry.resource, error: { path: error.path, reason: error.reason } });
      }
      return;
    }
    errors.push(...messageErrorsOf(entry.resource));
  });
  const queuedMessages = hasQueuedTag(raw) || hasQueuedTag(h) || parts.some((p) => p.view?.queuedMessages || hasQueuedTag(p.raw));
  const view: MessageView = { header, focus, entries: bundle.entries, queuedMessages, messages, parts, errors, notes };
  if (text((raw as { id?: unknown }).id)) view.bundleId = raw.id as string;
  if (bundle.timestamp) view.timestamp = bundle.timestamp;
  return { view, raw };
}

/** Reads a message Bundle (any R4; FhirReadError when not valid R4 or not a message). */
export function readMessage(json: unknown): Read<MessageView, Bundle> {
  return readMessageJson(json, "Bundle");
}

/**
 * Whether `message` answers the request whose MessageHeader id is `headerId`: by
 * `MessageHeader.response.identifier`, else by a ClaimResponse whose `request.identifier` is the
 * claim's business identifier (some payers answer in a new message without the response element).
 */
export function answersRequest(message: MessageView, headerId: string, claimIdentifier?: { system?: string; value: string }): boolean {
  if (message.header.responseTo !== undefined) return message.header.responseTo === headerId;
  if (!claimIdentifier) return false;
  return message.entries.some((e) => {
    if (e.resourceType !== "ClaimResponse" || !e.resource) return false;
    const request = isObject(e.resource.request) && isObject(e.resource.request.identifier) ? e.resource.request.identifier : undefined;
    return request?.value === claimIdentifier.value && (claimIdentifier.system === undefined || request.system === claimIdentifier.system);
  });
}

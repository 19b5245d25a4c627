import type { InboxSummary } from "@/lib/db";
import { isFhirReadError, readClaimResponse, readReference, type MessageView } from "@/lib/fhir";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

/** A reference as a person reads it: identifier value, else display, else the reference itself. */
function named(value: unknown): string | undefined {
  const ref = readReference(value);
  return ref?.identifier?.value ?? ref?.display ?? ref?.reference;
}

/** The message's main resource: its first focus, else its first entry that is not the header. */
export function focusOf(message: MessageView): Json | undefined {
  return message.focus[0] ?? message.entries.find((e) => e.resource && e.resourceType !== "MessageHeader")?.resource;
}

/**
 * What a message says, for the "Received, not matched" page: type, payer, patient, the claim it
 * names, outcome and total as the payer states them. Read from the resource with the lib/fhir
 * readers where one exists; never throws (a resource that does not read gives what it can).
 */
export function summarize(resource: Json | undefined, message?: MessageView): InboxSummary {
  const summary: InboxSummary = {};
  if (!resource) return summary;
  if (str(resource.resourceType)) summary.resourceType = resource.resourceType as string;
  const payer = named(resource.insurer) ?? named(resource.requester) ?? named(resource.sender) ?? named(resource.paymentIssuer) ?? message?.header.senderLicense?.value;
  if (payer) summary.payer = payer;
  const patient = named(resource.patient) ?? named(resource.subject) ?? named(resource.for);
  if (patient) summary.patient = patient;
  const request = readReference(resource.request) ?? readReference(resource.focus) ?? (Array.isArray(resource.about) ? readReference(resource.about[0]) : undefined);
  if (request?.identifier?.value) summary.claimIdentifier = request.identifier.value;
  if (resource.resourceType === "ClaimResponse") {
    try {
      const { view } = readClaimResponse(resource);
      summary.outcome = view.decision;
      if (view.disposition) summary.disposition = view.disposition.slice(0, 200);
      const benefit = view.total.benefit;
      if (benefit?.minor !== undefined) summary.total = (benefit.minor / 100).toFixed(2);
      if (benefit?.currency) summary.currency = benefit.currency;
      if (view.preAuthRef) summary.preAuthRef = view.preAuthRef;
      if (view.reissueReason?.code) summary.reissueReason = view.reissueReason.code;
    } catch (error) {
      if (!isFhirReadError(error)) throw error;
    }
  } else {
    if (str(resource.status)) summary.outcome = resource.status as string;
    if (str(resource.disposition)) summary.disposition = (resource.disposition as string).slice(0, 200);
    const amount = isObject(resource.paymentAmount) ? resource.paymentAmount : undefined;
    if (typeof amount?.value === "number") {
      summary.total = amount.value.toFixed(2);
      if (str(amount.currency)) summary.currency = amount.currency as string;
    }
  }
  return summary;
}

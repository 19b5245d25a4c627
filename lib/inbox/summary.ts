import type { InboxSummary } from "@/lib/db";
import { readReference, type MessageView } from "@/lib/fhir";

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
 * names, outcome and total as the payer states them — looked up in the resource as received (the
 * one reading of an answer is its handler's); never throws (a resource that does not read gives what it can).
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
    // Looked up, not read: the answer's one reading is its handler's (docs/decisions/078).
    if (str(resource.outcome)) summary.outcome = resource.outcome as string;
    if (str(resource.disposition)) summary.disposition = (resource.disposition as string).slice(0, 200);
    const totals = Array.isArray(resource.total) ? (resource.total as Json[]) : [];
    const benefit = totals.find((t) => isObject(t.category) && Array.isArray(t.category.coding) && (t.category.coding as Json[]).some((c) => c.code === "benefit"));
    const amount = isObject(benefit?.amount) ? benefit.amount : undefined;
    if (typeof amount?.value === "number") {
      summary.total = amount.value.toFixed(2);
      if (str(amount.currency)) summary.currency = amount.currency as string;
    }
    if (str(resource.preAuthRef)) summary.preAuthRef = resource.preAuthRef as string;
    const reissue = (Array.isArray(resource.extension) ? (resource.extension as Json[]) : []).find((e) => typeof e.url === "string" && e.url.endsWith("/extension-adjudication-reissue"));
    const coding = isObject(reissue?.valueCodeableConcept) && Array.isArray(reissue.valueCodeableConcept.coding) ? (reissue.valueCodeableConcept.coding as Json[])[0] : undefined;
    if (str(coding?.code)) summary.reissueReason = coding!.code as string;
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

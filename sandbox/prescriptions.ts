import type { Claim, ClaimResponse, ClaimResponseItem, Extension, MedicationRequest } from "@medplum/fhirtypes";
import { NATIONAL_EXCHANGE, nphies } from "../lib/fhir";

/**
 * A prescriber's predetermination (guide 7.11, Table 39; docs/decisions/116) as the payer answers
 * it: each line approved or cut like any authorization line, and — the part particular to
 * prescriptions — the refills it approves in `ClaimResponse.item.adjudication` of category
 * `approved-refill` (7.11 point 3): what the MedicationRequest asked (Dosage.timing.repeat.count),
 * cut to the sandbox's most (SANDBOX_MAX_REFILLS). A line whose refills were cut is `partial`.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The default most refills the sandbox approves on one line. */
export const DEFAULT_MAX_REFILLS = 3;

/** Where the sandbox keeps, on each stored line of a prescription, the refills its MedicationRequest asked. */
export const REQUESTED_REFILLS_EXTENSION = "https://sandbox.clinic-exchange.example/StructureDefinition/requested-refills";

/**
 * The Claim of a prescriber-request kept with what it prescribed: each line's MedicationRequest
 * (resolved in the message by the line's extension-prescription) gives the refills it asked
 * (Dosage.timing.repeat.count; none: 0), kept on the stored line in the sandbox's own extension,
 * so every later answer (status check, poll) still knows them.
 */
export function keepPrescribed(claim: Json, resolve: (reference: unknown) => Json | undefined): Json {
  if (!Array.isArray(claim.item)) return claim;
  const item = claim.item.map((line) => {
    if (!isObject(line)) return line;
    const extensions = Array.isArray(line.extension) ? line.extension : [];
    const pointer = extensions.find((e) => isObject(e) && e.url === nphies.EXTENSIONS.prescription);
    const request = isObject(pointer) ? resolve(pointer.valueReference) : undefined;
    if (request?.resourceType !== "MedicationRequest") return line;
    const count = (request as unknown as MedicationRequest).dosageInstruction?.[0]?.timing?.repeat?.count ?? 0;
    return { ...line, extension: [...extensions, { url: REQUESTED_REFILLS_EXTENSION, valueInteger: Number.isInteger(count) && count >= 0 ? count : 0 }] };
  });
  return { ...claim, item };
}

/** The refills each line asked for (by item sequence), as kept on the stored lines. */
export function requestedRefills(claim: Claim): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of claim.item ?? []) {
    const kept = line.extension?.find((e) => e.url === REQUESTED_REFILLS_EXTENSION)?.valueInteger;
    if (typeof kept === "number") out.set(line.sequence, kept);
  }
  return out;
}

function withOutcome<T extends { extension?: Extension[] }>(element: T, code: string): T {
  const others = (element.extension ?? []).filter((e) => e.url !== NATIONAL_EXCHANGE.adjudicationOutcomeExtension);
  return { ...element, extension: [...others, { url: NATIONAL_EXCHANGE.adjudicationOutcomeExtension, valueCodeableConcept: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationOutcomeSystem, code }] } }] };
}

/**
 * Whether the payer refused a prescription's line: the adjudication gave it a reason (not covered,
 * coverage not in force, a quantity over the limit …). A prescription is advisory, not financial
 * (guide 7.11 point 2): its lines go at 0.00, so a zero benefit alone refuses nothing.
 */
const refused = (item: ClaimResponseItem): boolean => item.adjudication.some((a) => (a.reason?.coding?.length ?? 0) > 0);

/**
 * The answer to a prescription, decided per line on what matters to it: each line the payer did
 * not refuse is `approved` with `approved-refill` = min(asked, most), `partial` when the refills
 * were cut; a refused line `rejected` with 0. The whole answer: approved, rejected, or partial.
 * An answer to anything else comes back as it is.
 */
export function withApprovedRefills(response: ClaimResponse, claim: Claim, maxRefills: number): ClaimResponse {
  const asked = requestedRefills(claim);
  if (asked.size === 0) return response;
  const outcomes: string[] = [];
  const item = (response.item ?? []).map((line) => {
    const requested = asked.get(line.itemSequence);
    if (requested === undefined) return line;
    const no = refused(line);
    const approved = no ? 0 : Math.min(requested, Math.max(0, maxRefills));
    const adjudication = [
      ...line.adjudication.filter((a) => !a.category.coding?.some((c) => c.code === nphies.APPROVED_REFILL_CATEGORY)),
      { category: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationSystem, code: nphies.APPROVED_REFILL_CATEGORY, display: "Approved refills" }] }, value: approved },
    ];
    const outcome = no ? "rejected" : approved < requested ? "partial" : "approved";
    outcomes.push(outcome);
    return withOutcome({ ...line, adjudication }, outcome);
  });
  const overall = outcomes.every((o) => o === "approved") ? "approved" : outcomes.every((o) => o === "rejected") ? "rejected" : "partial";
  return withOutcome({ ...response, item, ...(overall === "rejected" ? {} : { outcome: "complete" as const }) }, overall);
}

import type { Claim, CoverageEligibilityRequest, Resource } from "@medplum/fhirtypes";
import { buildMessage, type BuiltMessage, type MessageInput } from "../../messages/build";
import { profileOf, type ProfileRole } from "../profiles";
import { assembleClaim, takeEncounter, takeMedicationRequests } from "./claim";
import { assembleEligibility } from "./eligibility";
import type { CareSetting, MessageParties } from "./facts";
import { coverageResource, encounterResource, insurerResource, locationResource, patientResource, practitionerResource, providerResource } from "./resources";

/** The profile of a message's focus, by event (claims take theirs from their care setting). */
const FOCUS_ROLE: Partial<Record<MessageInput["event"], ProfileRole>> = {
  "eligibility-request": "eligibilityRequest",
  "poll-request": "pollRequest",
  "cancel-request": "cancelRequest",
  "status-check": "statusCheck",
  communication: "communication",
  "payment-notice": "paymentNotice",
};

const withProfile = <T extends Resource>(resource: T, role: ProfileRole): T => ({ ...resource, meta: { ...resource.meta, profile: [profileOf(role)] } });

/** Every party resource of a request, profiled (patient, coverage, provider, insurer, practitioners, location). */
export function partyResources(parties: MessageParties, base: string): Resource[] {
  return [
    patientResource(parties.patient),
    ...(parties.mother ? [patientResource(parties.mother)] : []),
    ...(parties.coverage ? [coverageResource(parties.coverage, base, parties.mother?.id ?? parties.patient.id, parties.insurer.id)] : []),
    providerResource(parties.provider),
    insurerResource(parties.insurer),
    ...(parties.practitioners ?? []).map(practitionerResource),
    ...(parties.location ? [locationResource(parties.location, parties.provider.id)] : []),
    ...(parties.encounter ? [encounterResource(parties.encounter, parties.patient.id, parties.provider.id)] : []),
  ];
}

export interface AssembleInput extends Omit<MessageInput, "resources"> {
  /** The parties; absent for messages about no patient (polls, payment notices). */
  parties?: MessageParties;
  /** A Claim focus's care setting (default institutional, outpatient … as the caller decides). */
  setting?: CareSetting;
  /** Further resources the focus refers to (a Task's requester and owner, …) not among the parties. */
  resources?: Resource[];
}

/**
 * A complete request message (docs/decisions/074): the focus profiled for its event (a Claim
 * assembled for its care setting, an eligibility request for the exchange, decision 075), the parties as profiled entries, on the sender's base (absolute
 * fullUrls `<base>/<Type>/<id>`), inside the envelope of lib/fhir/messages (MessageHeader,
 * licences, size). Resources given twice (the provider as a party and as a Task's requester) are
 * carried once.
 */
export function assembleMessage(input: AssembleInput): BuiltMessage {
  const base = input.sourceEndpoint.replace(/\/+$/, "");
  let focus = input.focus;
  const carried: Resource[] = [];
  if (focus.resourceType === "Claim") {
    if (!input.parties) throw new Error("a claim message is assembled with its parties");
    // The Claim's own Encounter (docs/decisions/103) becomes an entry; it wins over one derived from the stay.
    // A prescription's MedicationRequests (guide 7.11, 9.6) become entries too.
    const prescribed = takeMedicationRequests(focus as Claim, input.parties);
    carried.push(...prescribed.requests);
    const taken = takeEncounter(prescribed.claim, input.parties);
    const parties = taken.encounter ? { ...input.parties, encounter: undefined } : input.parties;
    if (taken.encounter) carried.push(taken.encounter);
    focus = assembleClaim(taken.claim, parties, input.setting);
  } else if (focus.resourceType === "CoverageEligibilityRequest" && input.parties) {
    focus = assembleEligibility(focus as CoverageEligibilityRequest, input.parties);
  } else {
    const role = FOCUS_ROLE[input.event];
    if (role) focus = withProfile(focus, role);
  }
  const resources: Resource[] = [];
  const seen = new Set<string>([`${focus.resourceType}/${focus.id ?? ""}`]);
  const parties = input.parties && carried.some((r) => r.resourceType === "Encounter") ? { ...input.parties, encounter: undefined } : input.parties;
  for (const resource of [...(parties ? partyResources(parties, base) : []), ...carried, ...(input.resources ?? [])]) {
    const key = `${resource.resourceType}/${resource.id ?? ""}`;
    if (resource.id && seen.has(key)) continue;
    seen.add(key);
    resources.push(resource);
  }
  return buildMessage({ ...input, focus, resources });
}

import type { Claim, ClaimCareTeam, ClaimItem, Encounter, MedicationRequest } from "@medplum/fhirtypes";
import { money, toMinorUnits } from "../../money";
import { EXTENSIONS } from "../extensions";
import { claimProfile, isClaimType, profileOf } from "../profiles";
import { profileUrl } from "../canonical";
import { PORTAL_URI_BASE } from "../../systems";
import { MDS_EXTENSIONS } from "../mds";

/** The clinic's invoice numbers (extension-patientInvoice). */
const PATIENT_INVOICE_SYSTEM = `${PORTAL_URI_BASE}/patientInvoice`;
import { CODE_SYSTEMS } from "../../systems";
import { SYSTEMS } from "../terminology";
import type { CareSetting, MessageParties } from "./facts";
import { ref } from "./resources";

const concept = (system: string, code: string) => ({ coding: [{ system, code }] });

/** Minor units of a Money value (undefined when absent or not exact to the halala). */
const minorOf = (value: { value?: number } | undefined): number | undefined => (typeof value?.value === "number" ? toMinorUnits(value.value) : undefined);

/** item.net = quantity × unitPrice × factor + tax, exactly (in halalas); undefined when the price is unknown. */
function netOf(item: ClaimItem): number | undefined {
  const unit = minorOf(item.unitPrice);
  if (unit === undefined) return undefined;
  const tax = minorOf(item.extension?.find((e) => e.url === EXTENSIONS.tax)?.valueMoney) ?? 0;
  return Math.round(unit * (item.quantity?.value ?? 1) * (item.factor ?? 1)) + tax;
}

/**
 * A Claim as the exchange takes it, from the portal's Claim and its parties: the profile of its
 * care setting and use, type and subtype, every party referenced as an entry of the message
 * (patient, insurer, provider, coverage, practitioners of the care team, the facility), payee,
 * diagnosis roles (the first principal, the others secondary, unless given), item.net and total.
 * What the clinic did not record (chief complaint, encounter of an inpatient stay …) is not
 * invented: the rule checker names it (docs/decisions/074).
 */
export function assembleClaim(claim: Claim, parties: MessageParties, setting?: CareSetting): Claim {
  const use = claim.use === "preauthorization" || claim.use === "predetermination" ? "preauthorization" : "claim";
  // A prescriber's predetermination declares the prescriber profile (guide 7.11, 9.6).
  const profile = claim.use === "predetermination" ? profileUrl(PRESCRIBER_PROFILE_NAME) : undefined;
  // The care setting given, else the one the claim names (the portal's forms: institutional today).
  const named = claim.type?.coding?.find((c) => c.system === SYSTEMS.claimType)?.code;
  const type = setting?.type ?? (isClaimType(named) ? named : undefined);
  const practitioners = parties.practitioners ?? [];
  const careTeam: ClaimCareTeam[] | undefined =
    claim.careTeam ??
    (practitioners.length > 0
      ? practitioners.map((p, i) => ({
          sequence: i + 1,
          provider: ref("Practitioner", p.id),
          role: concept(SYSTEMS.careTeamRole, i === 0 ? "primary" : "assist"),
          qualification: concept(SYSTEMS.practiceCodes, p.specialty),
        }))
      : undefined);
  // A claim's lines name the invoice they were billed on (guide 7.4.2.2): the claim's own business
  // number, the one number the clinic gives the visit's bill, unless the line names its own.
  const invoice = use === "claim" ? claim.identifier?.[0]?.value : undefined;
  const items = (claim.item ?? []).map((item) => {
    const net = item.net ? undefined : netOf(item);
    const invoiced = invoice && !item.extension?.some((e) => e.url === MDS_EXTENSIONS.patientInvoice);
    return {
      ...item,
      ...(invoiced ? { extension: [...(item.extension ?? []), { url: MDS_EXTENSIONS.patientInvoice, valueIdentifier: { system: PATIENT_INVOICE_SYSTEM, value: invoice } }] } : {}),
      ...(careTeam && !item.careTeamSequence ? { careTeamSequence: [careTeam[0]!.sequence] } : {}),
      ...(net !== undefined ? { net: money(net, item.unitPrice?.currency ?? "SAR") } : {}),
    };
  });
  // The spec's supporting-information categories (HL7 `attachment`, `info`) in the exchange's own
  // category system, where the portal's REST-shaped Claim gave only the HL7 one.
  const supportingInfo = claim.supportingInfo?.map((info) => {
    if (info.category?.coding?.some((c) => c.system === SYSTEMS.claimInformationCategory)) return info;
    const hl7 = info.category?.coding?.find((c) => c.system === CODE_SYSTEMS.supportingInfoCategory && (c.code === "attachment" || c.code === "info"));
    return hl7?.code ? { ...info, category: concept(SYSTEMS.claimInformationCategory, hl7.code) } : info;
  });
  const nets = items.map((i) => minorOf(i.net));
  const total = claim.total ?? (nets.length > 0 && nets.every((n) => n !== undefined) ? money(nets.reduce<number>((s, n) => s + n!, 0)) : undefined);
  const encounter = parties.encounter && !claim.extension?.some((e) => e.url === EXTENSIONS.encounter)
    ? [{ url: EXTENSIONS.encounter, valueReference: ref("Encounter", parties.encounter.id) }]
    : [];
  return {
    ...claim,
    ...(type ? { meta: { ...claim.meta, profile: [profile ?? claimProfile(type, use)] } } : {}),
    ...(encounter.length > 0 ? { extension: [...(claim.extension ?? []), ...encounter] } : {}),
    ...(setting ? { type: concept(SYSTEMS.claimType, setting.type) } : {}),
    ...(setting?.subtype ? { subType: concept(SYSTEMS.claimSubtype, setting.subtype) } : {}),
    patient: ref("Patient", parties.patient.id),
    insurer: ref("Organization", parties.insurer.id),
    provider: ref("Organization", parties.provider.id),
    payee: claim.payee ?? { type: concept(SYSTEMS.payeeType, "provider") },
    ...(careTeam ? { careTeam } : {}),
    ...(parties.location && !claim.facility ? { facility: ref("Location", parties.location.id) } : {}),
    insurance: (claim.insurance ?? []).map((insurance, i) => (i === 0 && parties.coverage ? { ...insurance, coverage: ref("Coverage", parties.coverage.id) } : insurance)),
    ...(claim.diagnosis
      ? { diagnosis: claim.diagnosis.map((d, i) => (d.type?.length ? d : { ...d, type: [concept(SYSTEMS.diagnosisType, i === 0 ? "principal" : "secondary")] })) }
      : {}),
    ...(supportingInfo ? { supportingInfo } : {}),
    ...(items.length > 0 ? { item: items } : {}),
    ...(total ? { total } : {}),
  };
}

/** The clinic's visit numbers (the Encounter's identifier when the Claim's Encounter names none). */
const ENCOUNTER_SYSTEM = `${PORTAL_URI_BASE}/encounter`;

/**
 * The Claim's contained Encounter (`#encounter`, docs/decisions/103) moved into the message as its
 * own profiled entry: named by the episode, else the claim's identifier; its subject the patient,
 * its service provider the provider; the Claim's extension-encounter then points at the entry.
 * A Claim without a contained Encounter comes back as it is.
 */
export function takeEncounter(claim: Claim, parties: MessageParties): { claim: Claim; encounter?: Encounter } {
  const contained = claim.contained?.find((r): r is Encounter => r.resourceType === "Encounter");
  const pointer = claim.extension?.find((e) => e.url === EXTENSIONS.encounter);
  if (!contained || (pointer && pointer.valueReference?.reference !== `#${contained.id ?? ""}`)) return { claim };
  const episode = claim.extension?.find((e) => e.url === EXTENSIONS.episode)?.valueIdentifier?.value;
  const value = contained.identifier?.[0]?.value ?? episode ?? claim.identifier?.[0]?.value ?? claim.id;
  if (!value) return { claim };
  const id = `enc-${value}`.replace(/[^A-Za-z0-9\-.]/g, "-").slice(0, 64);
  const encounter: Encounter = {
    ...contained,
    id,
    meta: { profile: [profileOf("encounter")] },
    identifier: contained.identifier?.length ? contained.identifier : [{ system: ENCOUNTER_SYSTEM, value }],
    subject: ref("Patient", parties.patient.id),
    serviceProvider: ref("Organization", parties.provider.id),
  };
  const rest = (claim.contained ?? []).filter((r) => r !== contained);
  const { contained: _dropped, ...withoutContained } = claim;
  void _dropped;
  return {
    claim: {
      ...withoutContained,
      ...(rest.length > 0 ? { contained: rest } : {}),
      extension: [...(claim.extension ?? []).filter((e) => e !== pointer), { url: EXTENSIONS.encounter, valueReference: ref("Encounter", id) }],
    },
    encounter,
  };
}

/** The prescriber's Claim profile name (guide 7.11, 9.6); the rule checker knows it as PRESCRIBER_PROFILE. */
const PRESCRIBER_PROFILE_NAME = "prescriber-priorauth";

/**
 * A prescription's contained MedicationRequests (`#mr-<n>`, lib/fhir/builders/prescription.ts)
 * moved into the message as profiled entries, named after the claim's identifier; their subject
 * the patient, their requester the prescriber; each line's extension-prescription then points at
 * its entry. A Claim without them comes back as it is.
 */
export function takeMedicationRequests(claim: Claim, parties: MessageParties): { claim: Claim; requests: MedicationRequest[] } {
  const contained = (claim.contained ?? []).filter((r): r is MedicationRequest => r.resourceType === "MedicationRequest");
  if (contained.length === 0) return { claim, requests: [] };
  const base = (claim.identifier?.[0]?.value ?? claim.id ?? "rx").replace(/[^A-Za-z0-9\-.]/g, "-");
  const ids = new Map<string, string>();
  const requests = contained.map((r) => {
    const id = `${base}-${r.id ?? ids.size + 1}`.slice(-64);
    ids.set(`#${r.id ?? ""}`, id);
    return {
      ...r,
      id,
      meta: { profile: [profileOf("medicationRequest")] },
      identifier: r.identifier?.length ? r.identifier : [{ system: MEDICATION_REQUEST_SYSTEM, value: id }],
      subject: ref("Patient", parties.patient.id),
      ...(r.requester?.reference ? { requester: { ...r.requester, reference: r.requester.reference } } : {}),
    } as MedicationRequest;
  });
  const rest = (claim.contained ?? []).filter((r) => r.resourceType !== "MedicationRequest");
  const { contained: _dropped, ...withoutContained } = claim;
  void _dropped;
  return {
    claim: {
      ...withoutContained,
      ...(rest.length > 0 ? { contained: rest } : {}),
      item: (claim.item ?? []).map((item) => ({
        ...item,
        ...(item.extension
          ? {
              extension: item.extension.map((e) => {
                const target = e.url === EXTENSIONS.prescription ? ids.get(e.valueReference?.reference ?? "") : undefined;
                return target ? { url: e.url, valueReference: ref("MedicationRequest", target) } : e;
              }),
            }
          : {}),
      })),
    },
    requests,
  };
}

/** The clinic's numbers of its prescriptions' lines (the MedicationRequest's identifier). */
const MEDICATION_REQUEST_SYSTEM = `${PORTAL_URI_BASE}/medication-request`;

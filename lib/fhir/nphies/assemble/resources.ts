import type { Coverage, Encounter, Location, Organization, Patient, Practitioner, Reference, Resource } from "@medplum/fhirtypes";
import { EXTENSIONS } from "../extensions";
import { profileOf } from "../profiles";
import { LICENSES, PATIENT_DOCUMENTS, SYSTEMS } from "../terminology";
import { MARITAL_STATUSES, MDS_SYSTEMS } from "../mds";
import type { CoverageFacts, EncounterFacts, LocationFacts, OrganizationFacts, PatientFacts, PractitionerFacts, ProviderFacts } from "./facts";

/**
 * The exchange's profiled resources of a request's parties, from facts: each with its
 * `meta.profile`, the identifiers and elements its profile requires (lib/fhir/nphies/rules/
 * required.ts), and references in `Type/id` form, which resolve against the message's base.
 */
// Typed as a reference to any resource type: the one named by `type`.
export const ref = (type: Resource["resourceType"], id: string): Reference<never> => ({ reference: `${type}/${id}` });

const concept = (system: string, code: string) => ({ coding: [{ system, code }] });

export function patientResource(f: PatientFacts): Patient {
  const document = PATIENT_DOCUMENTS[f.document];
  return {
    resourceType: "Patient",
    id: f.id,
    meta: { profile: [profileOf("patient")] },
    extension: [
      { url: EXTENSIONS.occupation, valueCodeableConcept: concept(SYSTEMS.occupation, f.occupation ?? "unknown") },
      ...(f.religion ? [{ url: EXTENSIONS.patientReligion, valueCodeableConcept: concept(MDS_SYSTEMS.religion, f.religion) }] : []),
    ],
    identifier: [{ type: concept(SYSTEMS.identifierType, document.type), system: document.system, value: f.number }],
    active: true,
    name: [{ use: "official", text: `${f.givenName} ${f.familyName}`, family: f.familyName, given: [f.givenName] }],
    gender: f.gender,
    birthDate: f.birthDate,
    ...(f.maritalStatus ? { maritalStatus: { coding: [{ system: MDS_SYSTEMS.maritalStatus, code: f.maritalStatus, ...displayOf(f.maritalStatus) }] } } : {}),
  };
}

const displayOf = (code: string) => {
  const known = MARITAL_STATUSES.find((m) => m.code === code);
  return known ? { display: known.en } : {};
};

export function coverageResource(f: CoverageFacts, base: string, patientId: string, insurerId: string): Coverage {
  return {
    resourceType: "Coverage",
    id: f.id,
    meta: { profile: [profileOf("coverage")] },
    identifier: [{ system: f.memberSystem ?? `${base}/memberid/${insurerId}`, value: f.memberId }],
    status: "active",
    type: concept(SYSTEMS.coverageType, f.type ?? "EHCPOL"),
    policyHolder: ref("Patient", patientId),
    subscriber: ref("Patient", patientId),
    beneficiary: ref("Patient", patientId),
    relationship: concept(SYSTEMS.subscriberRelationship, f.relationship ?? "self"),
    payor: [ref("Organization", insurerId)],
    ...(f.periodEnd ? { period: { end: f.periodEnd } } : {}),
    ...(f.network ? { network: f.network } : {}),
    ...(f.classes?.length ? { class: f.classes.map((c) => ({ type: concept(SYSTEMS.coverageClass, c.type), value: c.value, ...(c.name ? { name: c.name } : {}) })) } : {}),
  };
}

export function providerResource(f: ProviderFacts): Organization {
  return {
    resourceType: "Organization",
    id: f.id,
    meta: { profile: [profileOf("providerOrganization")] },
    ...(f.providerType ? { extension: [{ url: EXTENSIONS.providerType, valueCodeableConcept: concept(SYSTEMS.providerType, f.providerType) }] } : {}),
    identifier: [{ system: LICENSES.provider, value: f.license }],
    active: true,
    type: [concept(SYSTEMS.organizationType, "prov")],
    name: f.name,
  };
}

export function insurerResource(f: OrganizationFacts): Organization {
  return {
    resourceType: "Organization",
    id: f.id,
    meta: { profile: [profileOf("insurerOrganization")] },
    identifier: [{ system: LICENSES.payer, value: f.license }],
    active: true,
    type: [concept(SYSTEMS.organizationType, "ins")],
    name: f.name,
  };
}

export function practitionerResource(f: PractitionerFacts): Practitioner {
  return {
    resourceType: "Practitioner",
    id: f.id,
    meta: { profile: [profileOf("practitioner")] },
    identifier: [{ system: LICENSES.practitioner, value: f.license }],
    active: true,
    name: [{ use: "official", text: `${f.givenName} ${f.familyName}`, family: f.familyName, given: [f.givenName] }],
  };
}

export function locationResource(f: LocationFacts, providerId: string): Location {
  return {
    resourceType: "Location",
    id: f.id,
    meta: { profile: [profileOf("location")] },
    identifier: [{ system: LICENSES.location, value: f.license }],
    status: "active",
    name: f.name,
    managingOrganization: ref("Organization", providerId),
  };
}

export function encounterResource(f: EncounterFacts, patientId: string, providerId: string): Encounter {
  return {
    resourceType: "Encounter",
    id: f.id,
    meta: { profile: [profileOf("encounter")] },
    identifier: [{ system: f.identifier.system, value: f.identifier.value }],
    status: f.status,
    class: { system: SYSTEMS.encounterClass, code: f.class },
    subject: ref("Patient", patientId),
    period: { start: f.start, ...(f.end ? { end: f.end } : {}) },
    serviceProvider: ref("Organization", providerId),
  };
}

import type { ClaimSubtype, PatientDocument } from "../terminology";
import type { ClaimType } from "../profiles";

/**
 * What message assembly needs to know about the parties of a request, gathered by the caller from
 * its own records (the portal's database, a test's fixtures). Plain facts, no FHIR: the assembly
 * turns them into the exchange's profiled resources (docs/decisions/074).
 */
export interface PatientFacts {
  /** The resource id the request's references use (the portal: the national ID / Iqama number). */
  id: string;
  document: PatientDocument;
  /** The document's number. */
  number: string;
  givenName: string;
  familyName: string;
  gender: "male" | "female" | "other" | "unknown";
  /** YYYY-MM-DD. */
  birthDate: string;
  /** occupation code (the Patient profile requires one); `unknown` when the clinic has none. */
  occupation?: string;
  /** v3-MaritalStatus code (the Minimum Data Set, docs/decisions/103); absent when not recorded. */
  maritalStatus?: string;
  /** religion code (extension-patient-religion, optional); absent when not recorded. */
  religion?: string;
}

export interface CoverageFacts {
  /** The resource id the request's references use (the portal: coverages.coverage_ref). */
  id: string;
  memberId: string;
  /** The insurer's member-id identifier system; default `<base>/memberid/<insurer id>`. */
  memberSystem?: string;
  /** subscriber-relationship of the patient to the subscriber; default `self`. */
  relationship?: string;
  /** coverage-type; default `EHCPOL`. */
  type?: string;
  /** The plan / group the card names. */
  classes?: readonly { type: "plan" | "group" | "class"; value: string; name?: string }[];
  /** The insurer's network the card names (Coverage.network). */
  network?: string;
  /** The card's expiry (YYYY-MM-DD), sent as Coverage.period.end (guide's Coverage profile, decision 126). */
  periodEnd?: string;
}

export interface OrganizationFacts {
  id: string;
  license: string;
  name: string;
}

export interface ProviderFacts extends OrganizationFacts {
  /** provider-type code of the facility, when configured (the profile requires it: the checker says so). */
  providerType?: string;
}

export interface PractitionerFacts {
  id: string;
  license: string;
  givenName: string;
  familyName: string;
  /** practice-codes specialty. */
  specialty: string;
}

export interface LocationFacts {
  id: string;
  license: string;
  name: string;
}

/** The encounter a claim belongs to (required for inpatient and emergency care). */
export interface EncounterFacts {
  id: string;
  /** The clinic's encounter number. */
  identifier: { system: string; value: string };
  /** v3-ActCode class: IMP, SS, AMB, EMER … */
  class: string;
  status: "planned" | "arrived" | "in-progress" | "finished";
  /** Admission / start, and discharge / end (ISO date-times). */
  start: string;
  end?: string;
}

/** Every party a request message carries besides its focus. */
export interface MessageParties {
  patient: PatientFacts;
  /** Absent only for a discovery (guide 7.1, Table 36): the insurer is asked which coverages it holds. */
  coverage?: CoverageFacts;
  /**
   * A newborn's request under the mother's coverage (guide 6.5): the mother, the coverage's
   * subscriber and beneficiary, carried as a Patient entry of her own.
   */
  mother?: PatientFacts;
  provider: ProviderFacts;
  insurer: OrganizationFacts;
  practitioners?: readonly PractitionerFacts[];
  location?: LocationFacts;
  encounter?: EncounterFacts;
}

/** The care setting of a claim or prior authorization. */
export interface CareSetting {
  type: ClaimType;
  /** Absent: the claim keeps the subtype it has (or none). */
  subtype?: ClaimSubtype;
}

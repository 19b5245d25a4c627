import { type ClaimSubtype, type ClaimType } from "@/lib/fhir/browser";
import * as mds from "@/lib/fhir/mds";

/**
 * What the "Visit details" section asks of one visit (the exchange's Minimum Data Set,
 * docs/decisions/103 and 105): `mds.mdsNeeds` for the care setting and use, then what the
 * diagnoses, the stay's end, the dispositions and the patient's age add. Pure, so the section and
 * its test read one answer.
 */
export interface VisitDetailsInput {
  use: "claim" | "preauthorization";
  claimType: ClaimType;
  subtype: ClaimSubtype;
  /** ICD-10-AM codes. */
  diagnoses: readonly string[];
  /** The care setting's admission and discharge (YYYY-MM-DD[THH:mm]; empty: not given). */
  admission: string;
  discharge: string;
  emergencyDisposition: string;
  dischargeDisposition: string;
  /** The patient's birth date (YYYY-MM-DD), when a patient is chosen. */
  birthDate?: string;
  /** The clinic's today (YYYY-MM-DD): the admission weight's age when no admission is given yet. */
  today: string;
}

export interface VisitDetailsPlan {
  /** Anything for the section to ask (the item maternity flag is asked on the lines). */
  section: boolean;
  encounterClasses: readonly string[];
  /** The class is asked only when the setting allows more than one. */
  encounterClass: boolean;
  serviceEventType: boolean;
  /** When an outpatient visit began (the Encounter's start). */
  visitStart: boolean;
  emergency: boolean;
  /** A claim of an emergency visit that ended: where the patient went. */
  emergencyDisposition: boolean;
  inpatient: boolean;
  /** A claim of a stay that ended: discharge specialty and disposition. */
  discharge: boolean;
  causeOfDeath: boolean;
  /** The intended stay on claims; a prior authorization's is the care setting's estimated stay. */
  intendedStay: boolean;
  vitalSigns: readonly mds.VitalSign[];
  notes: readonly mds.ClinicalNote[];
  investigation: boolean;
  morphology: boolean;
  admissionWeight: boolean;
  accident: boolean;
  /** The accident type the diagnoses demand (6.3.12). */
  accidentRequired: "WPA" | "MVA" | undefined;
  conditionOnset: boolean;
  maternity: boolean;
}

const DAY_MS = 86_400_000;

/** Whole days from the birth date to `on` (both YYYY-MM-DD…); undefined when either cannot be read. */
export function ageInDays(birthDate: string | undefined, on: string): number | undefined {
  if (!birthDate) return undefined;
  const born = Date.parse(`${birthDate.slice(0, 10)}T00:00:00Z`);
  const at = Date.parse(`${on.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(born) || Number.isNaN(at)) return undefined;
  return Math.floor((at - born) / DAY_MS);
}

export function visitDetailsPlan(input: VisitDetailsInput): VisitDetailsPlan {
  const needs = mds.mdsNeeds(input.claimType, input.subtype, input.use);
  const ended = input.use === "claim" && input.discharge !== "";
  const clinical = needs.vitalSigns.length > 0;
  const age = ageInDays(input.birthDate, input.admission || input.today);
  const died = mds.DEATH_DISPOSITIONS.includes(input.dischargeDisposition) || mds.DEATH_DISPOSITIONS.includes(input.emergencyDisposition);
  const conditionOnset = needs.conditionOnset && input.diagnoses.length > 0;
  const morphology = mds.needsMorphology(input.diagnoses);
  const accidentRequired = mds.accidentTypeRequired(input.diagnoses);
  return {
    section: needs.encounter || clinical || needs.clinicalNotes.length > 0 || needs.investigationResult || conditionOnset || morphology || accidentRequired !== undefined,
    encounterClasses: needs.encounterClasses,
    encounterClass: needs.encounterClasses.length > 1,
    serviceEventType: needs.encounter,
    visitStart: needs.visitStart,
    emergency: needs.emergency,
    emergencyDisposition: needs.emergency && ended,
    inpatient: needs.inpatient,
    discharge: needs.discharge && ended,
    causeOfDeath: (needs.discharge && ended) || (needs.emergency && ended) ? died : false,
    intendedStay: needs.inpatient && input.use === "claim",
    vitalSigns: needs.vitalSigns,
    notes: needs.clinicalNotes,
    investigation: needs.investigationResult,
    morphology,
    admissionWeight: needs.inpatient && age !== undefined && age >= 0 && age < mds.ADMISSION_WEIGHT_MAX_AGE_DAYS,
    accident: needs.encounter || accidentRequired !== undefined,
    accidentRequired,
    conditionOnset,
    maternity: needs.maternity,
  };
}

import type { Claim, ClaimItem, Extension, MedicationRequest } from "@medplum/fhirtypes";
import { money } from "../money";
import { organizationReference, patientReference } from "../references";
import { CODE_SYSTEMS, PLATFORM_CURRENCY, PORTAL_URI_BASE } from "../systems";
import { EXTENSIONS } from "../nphies/extensions";
import { LICENSES, SYSTEMS } from "../nphies/terminology";
import { ABSENCE_OF_SCIENTIFIC_CODE, DOSE_FREQUENCIES, type AbsenceOfScientificCode, type DoseFrequency } from "../nphies/prescriptions";

/** The clinic's own numbers of its prescriptions' lines (each MedicationRequest's identifier). */
export const MEDICATION_REQUEST_SYSTEM = `${PORTAL_URI_BASE}/medication-request`;

export interface PrescriptionLineInput {
  /** The medicine: by the exchange's scientific code, or by GTIN with the reason it has none. */
  medicine: { by: "scientific"; code: string; display?: string } | { by: "gtin"; code: string; display?: string; absenceReason: AbsenceOfScientificCode };
  /** The strength as written ("500 mg"): extension-strength. */
  strength: string;
  /** One dose: a number and its unit ("1 tablet", "5 mL"). */
  dose: { value: number; unit: string };
  frequency: DoseFrequency;
  /** How many days the course lasts (timing.repeat.boundsDuration). */
  durationDays: number;
  /** Refills asked for (Dosage.timing.repeat.count, guide 7.11 point 3). */
  refills: number;
  /** Packs to dispense each time (item.quantity). */
  quantity: number;
}

export interface PrescriptionInput {
  /** Business identifier; usually left out: the pipeline fixes it when the submission is queued. */
  identifier?: { system: string; value: string };
  /** The patient's national ID / Iqama (the patient's id on the platform). */
  nationalId: string;
  coverageRef: string;
  providerOrgId: string;
  created: Date;
  /** ICD-10-AM codes, in order (the first principal). */
  diagnoses: readonly string[];
  /** The prescriber (careTeam primary; MedicationRequest.requester). */
  prescriber: { practitionerId: string; specialty: string; license?: string; name?: string };
  lines: readonly PrescriptionLineInput[];
  /** An appeal of a decided prescription (guide 7.11.1, Table 39: related, relationship prior). */
  prior?: { platformId?: string; identifier?: { system?: string; value: string } };
}

const coding = (system: string, code: string, display?: string) => ({ coding: [{ system, code, ...(display ? { display } : {}) }] });

/** The MedicationRequest of a line, contained as `#mr-<sequence>` (the message assembly makes it an entry). */
function medicationRequest(input: PrescriptionInput, line: PrescriptionLineInput, sequence: number): MedicationRequest {
  const f = DOSE_FREQUENCIES[line.frequency];
  const medicine = line.medicine;
  return {
    resourceType: "MedicationRequest",
    id: `mr-${sequence}`,
    status: "active",
    intent: "order",
    medicationCodeableConcept: coding(medicine.by === "scientific" ? SYSTEMS.scientificCodes : SYSTEMS.medicationCodes, medicine.code, medicine.display),
    subject: patientReference(input.nationalId),
    authoredOn: input.created.toISOString(),
    requester: {
      reference: `Practitioner/${input.prescriber.practitionerId}`,
      ...(input.prescriber.license ? { identifier: { system: LICENSES.practitioner, value: input.prescriber.license } } : {}),
    },
    dosageInstruction: [
      {
        sequence: 1,
        text: `${line.dose.value} ${line.dose.unit}, ${f.en.toLowerCase()}, ${line.durationDays} d`,
        timing: {
          repeat: {
            // The refills asked for (guide 7.11 point 3 and Table 39: Dosage.timing.repeat.count, a
            // positiveInt in R4: none asked, no count).
            ...(line.refills > 0 ? { count: line.refills } : {}),
            frequency: f.frequency,
            period: f.period,
            periodUnit: f.periodUnit,
            boundsDuration: { value: line.durationDays, unit: "d", system: SYSTEMS.ucum, code: "d" },
          },
        },
        doseAndRate: [{ doseQuantity: { value: line.dose.value, unit: line.dose.unit } }],
      },
    ],
    dispenseRequest: { numberOfRepeatsAllowed: line.refills, quantity: { value: line.quantity }, expectedSupplyDuration: { value: line.durationDays, unit: "d", system: SYSTEMS.ucum, code: "d" } },
  };
}

/**
 * A prescription sent for verification (guide 7.11, 9.6): a pharmacy Claim with use
 * `predetermination` (the message assembly declares the prescriber profile), the prescriber as
 * primary care team member, the diagnoses, and one line per medicine — its scientific code or
 * GTIN (then extension-absence-of-scientific-code), its strength (extension-strength) and a
 * reference to its MedicationRequest (extension-prescription), which carries the dose, frequency,
 * duration and refills. The request is advisory, not financial (7.11 point 2): lines go at 0.00.
 */
export function buildPrescription(input: PrescriptionInput): { claim: Claim } {
  if (input.lines.length === 0) throw new Error("a prescription has at least one line");
  for (const line of input.lines) {
    if (!Number.isInteger(line.refills) || line.refills < 0) throw new Error(`bad refills ${line.refills}`);
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new Error(`bad quantity ${line.quantity}`);
    if (!Number.isInteger(line.durationDays) || line.durationDays < 1) throw new Error(`bad duration ${line.durationDays}`);
  }
  const day = input.created.toISOString().slice(0, 10);
  const contained = input.lines.map((line, i) => medicationRequest(input, line, i + 1));
  const items: ClaimItem[] = input.lines.map((line, i) => {
    const medicine = line.medicine;
    const extension: Extension[] = [
      { url: EXTENSIONS.prescription, valueReference: { reference: `#mr-${i + 1}` } },
      { url: EXTENSIONS.strength, valueString: line.strength },
      ...(medicine.by === "gtin"
        ? [{ url: EXTENSIONS.absenceOfScientificCode, valueCodeableConcept: coding(SYSTEMS.absenceOfScientificCode, medicine.absenceReason, ABSENCE_OF_SCIENTIFIC_CODE[medicine.absenceReason].en) }]
        : []),
      { url: EXTENSIONS.package, valueBoolean: false },
    ];
    return {
      sequence: i + 1,
      extension,
      careTeamSequence: [1],
      // Each line's days of supply (the pharmacy setting's required information): its course's duration.
      informationSequence: [i + 1],
      diagnosisSequence: input.diagnoses.map((_, d) => d + 1),
      productOrService: coding(medicine.by === "scientific" ? SYSTEMS.scientificCodes : SYSTEMS.medicationCodes, medicine.code, medicine.display),
      servicedDate: day,
      quantity: { value: line.quantity },
      unitPrice: money(0, PLATFORM_CURRENCY),
      net: money(0, PLATFORM_CURRENCY),
    };
  });
  const prior = input.prior;
  const claim: Claim = {
    resourceType: "Claim",
    contained,
    identifier: input.identifier ? [{ system: input.identifier.system, value: input.identifier.value }] : [],
    status: "active",
    type: coding(CODE_SYSTEMS.claimType, "pharmacy"),
    subType: coding(SYSTEMS.claimSubtype, "op"),
    use: "predetermination",
    patient: patientReference(input.nationalId),
    created: input.created.toISOString(),
    provider: organizationReference(input.providerOrgId),
    priority: coding(CODE_SYSTEMS.processPriority, "normal"),
    payee: { type: coding(SYSTEMS.payeeType, "provider") },
    careTeam: [
      {
        sequence: 1,
        provider: {
          reference: `Practitioner/${input.prescriber.practitionerId}`,
          ...(input.prescriber.license ? { identifier: { system: LICENSES.practitioner, value: input.prescriber.license } } : {}),
          ...(input.prescriber.name ? { display: input.prescriber.name } : {}),
        },
        role: coding(SYSTEMS.careTeamRole, "primary"),
        qualification: coding(SYSTEMS.practiceCodes, input.prescriber.specialty),
      },
    ],
    supportingInfo: input.lines.map((line, i) => ({
      sequence: i + 1,
      category: coding(SYSTEMS.claimInformationCategory, "days-supply"),
      valueQuantity: { value: line.durationDays, unit: "d", system: SYSTEMS.ucum, code: "d" },
    })),
    insurance: [{ sequence: 1, focal: true, coverage: { reference: `Coverage/${input.coverageRef}` } }],
    diagnosis: input.diagnoses.map((code, i) => ({
      sequence: i + 1,
      diagnosisCodeableConcept: coding(CODE_SYSTEMS.icd10am, code),
      type: [coding(SYSTEMS.diagnosisType, i === 0 ? "principal" : "secondary")],
    })),
    ...(prior && (prior.platformId || prior.identifier?.value)
      ? {
          related: [
            {
              claim: {
                ...(prior.platformId ? { reference: `Claim/${prior.platformId}` } : {}),
                ...(prior.identifier?.value ? { identifier: { ...(prior.identifier.system ? { system: prior.identifier.system } : {}), value: prior.identifier.value } } : {}),
              },
              relationship: coding(CODE_SYSTEMS.relatedClaimRelationship, "prior"),
            },
          ],
        }
      : {}),
    item: items,
    total: money(0, PLATFORM_CURRENCY),
  };
  return { claim };
}

/**
 * What a pharmacy claim says of the prescription it dispenses (guide 7.11 point 4): Claim.prescription
 * names the verified MedicationRequest by the payer's reference of the verification (its
 * preAuthRef), an identifier-only reference.
 */
export const PRESCRIPTION_REFERENCE_SYSTEM = `${PORTAL_URI_BASE}/prescription-verification`;
export function prescriptionReference(preAuthRef: string): NonNullable<Claim["prescription"]> {
  return { type: "MedicationRequest", identifier: { system: PRESCRIPTION_REFERENCE_SYSTEM, value: preAuthRef } };
}

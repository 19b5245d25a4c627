import { listPractitioners, seedDemoPractitioners } from "@/lib/facilities";
import type { Db } from "@/lib/db";
import * as mds from "@/lib/fhir/mds";
import type { ClinicalValues } from "../clinical-schema";

/** A professional outpatient visit's Minimum Data Set (docs/decisions/103): its Encounter, vital signs and notes. */
export function professionalVisit(): ClinicalValues {
  return {
    encounter: { class: "AMB", start: `${new Date().toISOString().slice(0, 10)}T09:00`, serviceEventType: "ICSE", triageCategory: "", triageDate: "", arrivalCode: "", emergencyServiceStart: "", emergencyDisposition: "", admitSource: "", admissionSpecialty: "", dischargeSpecialty: "", intendedStay: "", dischargeDisposition: "", causeOfDeath: "" },
    vitalSigns: Object.fromEntries(mds.VITAL_SIGN_KEYS.map((sign) => [sign, { value: "", absent: "not-applicable" }])),
    notes: Object.fromEntries(mds.CLINICAL_NOTE_KEYS.map((note) => [note, "Recorded at the visit."])),
    investigation: { code: "INP", text: "" },
    morphology: "",
    admissionWeight: "",
    accident: { type: "", date: "" },
    conditionOnset: {},
  };
}

/**
 * The care-setting answers a professional outpatient form needs (decision 083): the demo
 * practitioners seeded, the first as the care team, a chief complaint and the visit's clinical
 * facts the exchange's Minimum Data Set asks in messaging.
 */
export async function professionalCare(db: Db): Promise<{ claimType: "professional"; subtype: "op"; careTeam: string[]; chiefComplaint: string; clinical: ClinicalValues }> {
  await seedDemoPractitioners(db);
  const [first] = await listPractitioners(db, null);
  if (!first) throw new Error("no practitioner seeded");
  return { claimType: "professional", subtype: "op", careTeam: [first.id], chiefComplaint: "Pain for a week", clinical: professionalVisit() };
}

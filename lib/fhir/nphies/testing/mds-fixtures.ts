import { EXTENSIONS } from "../extensions";
import { MDS_EXTENSIONS, MDS_SYSTEMS } from "../mds";
import { profileOf } from "../profiles";
import { SYSTEMS } from "../terminology";
import { EXAMPLE_BASE } from "./example-messages";

/**
 * Completes a hand-written example message (example-messages.ts) with what the Minimum Data Set
 * asks of its Claim (decisions 103, 104): the Encounter of an institutional, professional or oral
 * request (with its emergency, admission and discharge details), item maternity flags, the
 * condition onset of institutional claim diagnoses, the clinical notes and investigation result,
 * the admission weight of a baby's stay, the Patient's marital status. The rule tests start from a
 * message that passes every rule and break one thing at a time.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures are mutated freely

const info = (category: string, rest: Json): Json => ({ category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: category }] }, ...rest });
const concept = (system: string, code: string): Json => ({ coding: [{ system, code }] });

export function withMinimumDataSet<T extends Json>(message: T): T {
  const entries = message.entry as Json[];
  for (const entry of entries) {
    const resource = entry.resource as Json | undefined;
    if (resource?.resourceType === "Patient" && !resource.maritalStatus) resource.maritalStatus = concept(MDS_SYSTEMS.maritalStatus, "U");
  }
  for (const entry of [...entries]) {
    const claim = entry.resource as Json;
    if (claim?.resourceType !== "Claim" || claim.use === "predetermination") continue;
    const type = claim.type.coding[0].code as string;
    const subtype = claim.subType?.coding?.[0]?.code as string | undefined;
    const use = claim.use as string;
    const needsEncounter = type === "institutional" || type === "professional" || type === "oral";
    let encounter: Json | undefined;
    if (needsEncounter) {
      encounter = entries.find((e) => e.resource?.resourceType === "Encounter")?.resource as Json | undefined;
      if (!encounter) {
        encounter = {
          resourceType: "Encounter",
          id: "enc-1",
          meta: { profile: [profileOf("encounter")] },
          identifier: [{ system: `${EXAMPLE_BASE}/encounter`, value: "E-1" }],
          status: "finished",
          class: { system: SYSTEMS.encounterClass, code: "AMB" },
          subject: { reference: `${EXAMPLE_BASE}/Patient/pat-1` },
          period: { start: "2026-11-20T08:00:00+03:00", end: "2026-11-20T09:00:00+03:00" },
          serviceProvider: { reference: `${EXAMPLE_BASE}/Organization/prov-1` },
        };
        entries.push({ fullUrl: `${EXAMPLE_BASE}/Encounter/enc-1`, resource: encounter });
      }
      encounter.class.code = subtype === "emr" ? "EMER" : type === "institutional" ? "IMP" : "AMB";
      if (!(claim.extension as Json[]).some((e) => e.url === EXTENSIONS.encounter)) claim.extension.push({ url: EXTENSIONS.encounter, valueReference: { reference: `${EXAMPLE_BASE}/Encounter/enc-1` } });
      const ext: Json[] = (encounter.extension ??= []);
      if (type !== "institutional") ext.push({ url: MDS_EXTENSIONS.serviceEventType, valueCodeableConcept: concept(MDS_SYSTEMS.serviceEventType, "ICSE") });
      if (encounter.class.code === "EMER") {
        ext.push(
          { url: MDS_EXTENSIONS.triageCategory, valueCodeableConcept: concept(MDS_SYSTEMS.triageCategory, "U") },
          { url: MDS_EXTENSIONS.triageDate, valueDateTime: "2026-11-20T08:05:00+03:00" },
          { url: MDS_EXTENSIONS.emergencyArrivalCode, valueCodeableConcept: concept(MDS_SYSTEMS.emergencyArrivalCode, "POV") },
          { url: MDS_EXTENSIONS.emergencyServiceStart, valueDateTime: "2026-11-20T08:10:00+03:00" },
        );
        if (use === "claim") ext.push({ url: MDS_EXTENSIONS.emergencyDepartmentDisposition, valueCodeableConcept: concept(MDS_SYSTEMS.emergencyDepartmentDisposition, "home") });
      }
      if (encounter.class.code === "IMP") {
        encounter.hospitalization = {
          extension: [
            { url: MDS_EXTENSIONS.admissionSpecialty, valueCodeableConcept: concept(SYSTEMS.practiceCodes, "08.00") },
            { url: MDS_EXTENSIONS.intendedLengthOfStay, valueCodeableConcept: concept(MDS_SYSTEMS.intendedLengthOfStay, "IO") },
            ...(use === "claim" ? [{ url: MDS_EXTENSIONS.dischargeSpecialty, valueCodeableConcept: concept(SYSTEMS.practiceCodes, "08.00") }] : []),
          ],
          admitSource: concept(MDS_SYSTEMS.admitSource, "IA"),
          ...(use === "claim" ? { dischargeDisposition: concept(MDS_SYSTEMS.dischargeDisposition, "home") } : {}),
        };
      }
      if (ext.length === 0) delete encounter.extension;
    }
    for (const item of claim.item as Json[]) {
      if (type === "institutional" || type === "professional" || type === "pharmacy") item.extension.push({ url: MDS_EXTENSIONS.maternity, valueBoolean: false });
    }
    if (type === "institutional" && use === "claim") {
      for (const d of claim.diagnosis as Json[]) d.extension = [{ url: MDS_EXTENSIONS.conditionOnset, valueCodeableConcept: concept(MDS_SYSTEMS.conditionOnset, "NR") }];
    }
    const infos = claim.supportingInfo as Json[];
    const add = (row: Json) => infos.push({ sequence: infos.length + 1, ...row });
    add(info("investigation-result", { code: concept(MDS_SYSTEMS.investigationResult, "INP") }));
    add(info("treatment-plan", { valueString: "Rest and review in a week" }));
    add(info("patient-history", { valueString: "No past illness" }));
    add(info("physical-examination", { valueString: "Unremarkable" }));
    add(info("history-of-present-illness", { valueString: "Two days of symptoms" }));
    const patientId = String(claim.patient?.reference ?? "").split("/").pop();
    const patient = entries.find((e) => e.resource?.resourceType === "Patient" && e.resource.id === patientId)?.resource as Json | undefined;
    const birth = typeof patient?.birthDate === "string" ? Date.parse(`${patient.birthDate}T00:00:00Z`) : NaN;
    const start = encounter ? Date.parse(String(encounter.period.start)) : NaN;
    if (encounter?.class.code === "IMP" && (start - birth) / 86_400_000 < 365) add(info("admission-weight", { valueQuantity: { value: 3.4, system: SYSTEMS.ucum, code: "kg", unit: "kg" } }));
  }
  return message;
}

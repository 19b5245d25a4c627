import { nphies, type ClaimParsed } from "@/lib/fhir";
import * as mds from "@/lib/fhir/mds";
import { EMPTY_CLINICAL, clinicalIssues, type ClinicalValues } from "./clinical-schema";

const EXTENSIONS = nphies.EXTENSIONS;

/**
 * The Minimum Data Set of a Claim that arrives through a machine API (docs/decisions/103): read
 * back into the form's clinical facts, so the same `clinicalIssues` the screens apply decides what
 * the exchange would refuse for this care setting — answered 422 naming the element, before
 * anything is stored (messaging only; the spec's REST takes the Claim without it).
 */

const codeOf = (concept: { coding?: { system?: string; code?: string }[] } | undefined, system?: string) =>
  concept?.coding?.find((c) => (system ? c.system === system : true) && c.code)?.code ?? "";

type Ext = NonNullable<ClaimParsed["extension"]>[number];
const extCode = (list: readonly Ext[] | undefined, url: string) => codeOf(list?.find((e) => e.url === url)?.valueCodeableConcept);
/** A dateTime as the form types it (YYYY-MM-DDTHH:mm[:ss]); other forms are left as they are (and found invalid). */
const extMoment = (list: readonly Ext[] | undefined, url: string) => {
  const value = list?.find((e) => e.url === url)?.valueDateTime ?? "";
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|\+00:00)$/.test(value) ? value.slice(0, 19) : value;
};

/** A dateTime as the form types it: see extMoment. */
const asMoment = (value: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(value) ? value.slice(0, 19) : value);

/** The Claim's own Encounter: contained, named by extension-encounter `#<id>`. */
export function containedEncounterOf(claim: ClaimParsed) {
  const pointer = claim.extension?.find((e) => e.url === EXTENSIONS.encounter)?.valueReference?.reference;
  if (!pointer?.startsWith("#")) return undefined;
  return claim.contained?.find((r) => r.resourceType === "Encounter" && `#${r.id}` === pointer);
}

export function clinicalValuesOfClaim(claim: ClaimParsed): ClinicalValues {
  const encounter = containedEncounterOf(claim);
  const x = encounter?.extension;
  const h = encounter?.hospitalization?.extension;
  const info = claim.supportingInfo ?? [];
  const category = (i: (typeof info)[number]) => codeOf(i.category, nphies.SYSTEMS.claimInformationCategory);
  const vitalSigns: ClinicalValues["vitalSigns"] = {};
  for (const sign of mds.VITAL_SIGN_KEYS) {
    const entry = info.find((i) => category(i) === sign);
    if (entry) vitalSigns[sign] = { value: entry.valueQuantity?.value !== undefined ? String(entry.valueQuantity.value) : "", absent: codeOf(entry.reason) };
  }
  const notes: ClinicalValues["notes"] = {};
  for (const note of mds.CLINICAL_NOTE_KEYS) {
    const entry = info.find((i) => category(i) === note);
    if (entry) notes[note] = entry.valueString ?? "";
  }
  const investigation = info.find((i) => category(i) === "investigation-result");
  const morphology = info.find((i) => category(i) === "morphology");
  const weight = info.find((i) => category(i) === "admission-weight")?.valueQuantity?.value;
  const conditionOnset: Record<string, string> = {};
  for (const d of claim.diagnosis ?? []) {
    const code = codeOf(d.diagnosisCodeableConcept);
    const onset = extCode(d.extension, mds.MDS_EXTENSIONS.conditionOnset);
    if (code && onset) conditionOnset[code] = onset;
  }
  return {
    ...EMPTY_CLINICAL,
    encounter: {
      ...EMPTY_CLINICAL.encounter,
      class: encounter?.class.code ?? "",
      start: asMoment(encounter?.period?.start ?? ""),
      serviceEventType: extCode(x, mds.MDS_EXTENSIONS.serviceEventType),
      triageCategory: extCode(x, mds.MDS_EXTENSIONS.triageCategory),
      triageDate: extMoment(x, mds.MDS_EXTENSIONS.triageDate),
      arrivalCode: extCode(x, mds.MDS_EXTENSIONS.emergencyArrivalCode),
      emergencyServiceStart: extMoment(x, mds.MDS_EXTENSIONS.emergencyServiceStart),
      emergencyDisposition: extCode(x, mds.MDS_EXTENSIONS.emergencyDepartmentDisposition),
      causeOfDeath: extCode(x, mds.MDS_EXTENSIONS.causeOfDeath),
      admitSource: codeOf(encounter?.hospitalization?.admitSource),
      admissionSpecialty: extCode(h, mds.MDS_EXTENSIONS.admissionSpecialty),
      dischargeSpecialty: extCode(h, mds.MDS_EXTENSIONS.dischargeSpecialty),
      dischargeDisposition: codeOf(encounter?.hospitalization?.dischargeDisposition),
    },
    vitalSigns,
    notes,
    investigation: { code: codeOf(investigation?.code), text: investigation?.code?.text ?? "" },
    morphology: codeOf(morphology?.code),
    admissionWeight: weight !== undefined ? String(weight) : "",
    accident: { type: codeOf(claim.accident?.type), date: claim.accident?.date ?? "" },
    conditionOnset,
  };
}

/** Where each clinical fact lives on the API Claim, for the 422's field path and words. */
function elementOf(path: readonly (string | number)[]): { path: PropertyKey[]; element: string } {
  const [, group, key] = path.map(String);
  const enc = (element: string, at: PropertyKey[]) => ({ path: ["contained", 0, ...at], element: `the contained Encounter's ${element}` });
  if (group === "encounter") {
    const url = (name: string) => `extension ${mds.MDS_EXTENSIONS[name as keyof typeof mds.MDS_EXTENSIONS] ?? name}`;
    switch (key) {
      case "class":
        return enc("class (v3-ActCode)", ["class"]);
      case "start":
        return enc("period.start (a date-time to the minute: when the visit began)", ["period", "start"]);
      case "admitSource":
        return enc(`hospitalization.admitSource (${mds.MDS_SYSTEMS.admitSource})`, ["hospitalization", "admitSource"]);
      case "dischargeDisposition":
        return enc(`hospitalization.dischargeDisposition (${mds.MDS_SYSTEMS.dischargeDisposition})`, ["hospitalization", "dischargeDisposition"]);
      case "admissionSpecialty":
      case "dischargeSpecialty":
        return enc(`hospitalization.${url(key)}`, ["hospitalization", "extension"]);
      case "arrivalCode":
        return enc(url("emergencyArrivalCode"), ["extension"]);
      case "emergencyDisposition":
        return enc(url("emergencyDepartmentDisposition"), ["extension"]);
      default:
        return enc(url(key ?? ""), ["extension"]);
    }
  }
  if (group === "vitalSigns") return { path: ["supportingInfo"], element: `supportingInfo "${key}" (a valueQuantity in ${mds.VITAL_SIGNS[key as mds.VitalSign]?.unit ?? "its unit"}, or its absence reason)` };
  if (group === "notes") return { path: ["supportingInfo"], element: `supportingInfo "${key}" (valueString)` };
  if (group === "investigation") return { path: ["supportingInfo"], element: `supportingInfo "investigation-result" (${mds.MDS_SYSTEMS.investigationResult}; text when "other")` };
  if (group === "morphology") return { path: ["supportingInfo"], element: `supportingInfo "morphology" (${mds.MDS_SYSTEMS.morphologyCode})` };
  if (group === "admissionWeight") return { path: ["supportingInfo"], element: `supportingInfo "admission-weight" (kg; an inpatient stay only)` };
  if (group === "accident") return { path: ["accident"], element: `accident (${key}: ${mds.ACCIDENT_TYPES.map((a) => a.code).join(", ")} of ${mds.MDS_SYSTEMS.accidentType}, and its date)` };
  if (group === "conditionOnset") return { path: ["diagnosis"], element: `each diagnosis's extension ${mds.MDS_EXTENSIONS.conditionOnset} (${mds.MDS_SYSTEMS.conditionOnset})` };
  return { path: [], element: path.join(".") };
}

/**
 * The first Minimum Data Set element the exchange requires of this API Claim's care setting that
 * is missing or wrong: the Encounter itself (contained, named by extension-encounter), every
 * maternity flag, then `clinicalIssues` on what the Claim carries. Undefined when it fits.
 */
export function apiClinicalProblem(claim: ClaimParsed, type: nphies.ClaimType, lists?: mds.MdsCodeLists): { path: PropertyKey[]; field: string; message: string } | undefined {
  const subtype = codeOf(claim.subType, nphies.SYSTEMS.claimSubtype) as nphies.ClaimSubtype;
  const use = claim.use === "preauthorization" ? "preauthorization" : "claim";
  const needs = mds.mdsNeeds(type, subtype, use);
  if (needs.encounter && !containedEncounterOf(claim)) {
    return {
      path: ["contained"],
      field: `required by the national exchange: the visit's Encounter, contained and named by extension ${EXTENSIONS.encounter} ("#<id>")`,
      message: `A ${type} ${use === "claim" ? "claim" : "prior authorization"} carries its Encounter (class ${needs.encounterClasses.join(" or ")}) in the national exchange: a contained Encounter named by the extension ${EXTENSIONS.encounter} (valueReference "#<id>").`,
    };
  }
  if (needs.maternity) {
    const missing = (claim.item ?? []).findIndex((item) => typeof item.extension?.find((e) => e.url === mds.MDS_EXTENSIONS.maternity)?.valueBoolean !== "boolean");
    if (missing >= 0) {
      return { path: ["item", missing, "extension"], field: `required by the national exchange: ${mds.MDS_EXTENSIONS.maternity} (valueBoolean)`, message: `Claim.item[${missing}] says whether it is maternity care in the national exchange: the extension ${mds.MDS_EXTENSIONS.maternity} (valueBoolean).` };
    }
  }
  const diagnoses = (claim.diagnosis ?? []).map((d) => codeOf(d.diagnosisCodeableConcept)).filter(Boolean);
  const encounter = containedEncounterOf(claim);
  const discharge = encounter?.period?.end ?? claim.billablePeriod?.end ?? "";
  const [issue] = clinicalIssues({ use, claimType: type, subtype, diagnoses, discharge, clinical: clinicalValuesOfClaim(claim), lists });
  if (!issue) return undefined;
  const where = elementOf(issue.path);
  return { path: where.path, field: `required by the national exchange: ${where.element} (${issue.message})`, message: `The national exchange refuses this ${type} ${use === "claim" ? "claim" : "prior authorization"} without ${where.element}: ${issue.message}.` };
}

import type { Claim, ClaimItem, ClaimSupportingInfo, Encounter, Extension } from "@medplum/fhirtypes";
import { money } from "../money";
import { organizationReference, patientReference } from "../references";
import { CODE_SYSTEMS, PLATFORM_CURRENCY, PORTAL_URI_BASE } from "../systems";
import { EXTENSIONS } from "../nphies/extensions";
import type { ClaimType } from "../nphies/profiles";
import { DIAGNOSIS_ON_ADMISSION, LICENSES, SYSTEMS, type ClaimSubtype, type DiagnosisOnAdmission } from "../nphies/terminology";
import type { PharmacistSelectionReason, PharmacistSubstitute } from "../nphies/prescriptions";
import { prescriptionReference } from "./prescription";
import { DEATH_DISPOSITIONS, MDS_EXTENSIONS, MDS_SYSTEMS, VITAL_SIGNS, VITAL_SIGN_KEYS, encounterClassesFor, mdsNeeds, type ClinicalFacts } from "../nphies/mds";

export type ClaimUse = "preauthorization" | "claim";

export interface ClaimItemInput {
  /** Code system of `code`; default CPT (the spec's REST dialect). */
  system?: string;
  /** Code of the service (CPT, or of the care setting's systems). */
  code: string;
  /** YYYY-MM-DD. */
  servicedDate: string;
  /** Whole number of units. */
  quantity: number;
  /** Unit price in minor units (halalas): exact, converted to the wire number once. */
  unitPriceMinor: number;
  /** Oral care: the FDI tooth number (item.bodySite). */
  tooth?: string;
  /** VAT on the line and the patient's share, in halalas (extension-tax, extension-patient-share). */
  taxMinor?: number;
  patientShareMinor?: number;
  /** The line is a package (extension-package). */
  package?: boolean;
  /** The line is maternity care (extension-maternity, the Minimum Data Set: institutional, professional, pharmacy). */
  maternity?: boolean;
  /** The clinic's invoice number the line was billed on (extension-patientInvoice). */
  invoice?: string;
  /**
   * A prior authorization's change (guide 7.3.1, Table 37): the service was already provided, so its
   * date travels as `servicedPeriod.start` instead of `servicedDate`.
   */
  performed?: boolean;
  // prescription: the pharmacist dispensed another medicine than the prescribed one (guide Table 10:
  // extension-prescribed-Medication, -pharmacist-Selection-Reason, -pharmacist-substitute).
  substitution?: { prescribed: { system: string; code: string }; reason: PharmacistSelectionReason; substitute: PharmacistSubstitute };
}

/**
 * The care setting of a claim and what it records beyond the common claim (docs/decisions/083):
 * the exchange's claim type and subtype, the care team, the chief complaint, days of supply,
 * the vision prescription, the stay (admission → discharge) and the episode.
 */
export interface CareSettingInput {
  type: ClaimType;
  subtype: ClaimSubtype;
  /** The practitioners in order (the first the primary): `Practitioner/<id>` and their practice-codes specialty. */
  /** The care team in order (the first is primary); licence and name also name the provider, so a reader without the entry (the denial views, a payer) knows who. */
  careTeam?: readonly { practitionerId: string; specialty: string; license?: string; name?: string }[];
  chiefComplaint?: string;
  daysSupply?: number;
  /** The vision prescription's number (an identifier-only reference). */
  visionPrescription?: string;
  /** The stay of an inpatient or emergency claim (ISO date-times): Claim.billablePeriod. */
  stay?: { start: string; end?: string };
  /** An inpatient prior authorization: the stay's estimated length in whole days (supportingInfo estimated-Length-of-Stay, BV-00802). */
  estimatedStayDays?: number;
  /**
   * An inpatient stay: whether each diagnosis was present on admission, by ICD-10-AM code
   * (diagnosis.onAdmission, BV-00027); a diagnosis not named here says nothing.
   */
  onAdmission?: Readonly<Record<string, DiagnosisOnAdmission>>;
  /** The clinic's episode of care (extension-episode). */
  episode?: string;
  /**
   * The visit's clinical facts (the exchange's Minimum Data Set, docs/decisions/103): written as a
   * contained Encounter (`#encounter`, extension-encounter), Table 35 supportingInfo, the
   * diagnoses' condition onset and Claim.accident. Absent: none of it (the REST spec's claim).
   */
  clinical?: ClinicalFacts;
}

export interface ClaimAttachmentInput {
  /** Sniffed from the bytes: application/pdf, image/jpeg or image/png. */
  contentType: string;
  /** The file's bytes, sent base64-encoded. */
  data: Uint8Array;
  /** The sanitised file name. */
  title: string;
  /** When the file was uploaded. */
  creation: Date;
}

export interface ClaimInput {
  use: ClaimUse;
  /** Business identifier; usually left out: the pipeline fixes it when the submission is queued. */
  identifier?: { system: string; value: string };
  /** The patient's national ID / Iqama: the patient's id on the platform. */
  nationalId: string;
  /** The platform's Coverage id, e.g. `cov-1000000001`. */
  coverageRef: string;
  /** The clinic's Organization id (PROVIDER_ORG_ID). */
  providerOrgId: string;
  created: Date;
  /** ICD-10-AM codes, in order (sequence 1…). */
  diagnoses: readonly string[];
  /** CPT codes of the procedures, in order. */
  procedures: readonly string[];
  items: readonly ClaimItemInput[];
  attachments?: readonly ClaimAttachmentInput[];
  /** For a claim made from prior authorizations: their references (`insurance[].preAuthRef`). */
  preAuthRefs?: readonly string[];
  /**
   * A fix-and-resubmit (or the copy of a cancelled claim): the prior claim, sent as `related`
   * with relationship `prior` — its platform id when the platform held it, and its business
   * identifier, so the payer sees the link too (decisions 045–048).
   */
  prior?: { platformId?: string; identifier?: { system?: string; value: string } };
  /** The care setting; absent: the spec's claim (type institutional, nothing more). */
  careSetting?: CareSettingInput;
  /**
   * The accounting period a claim is billed in: the first day of its month, YYYY-MM-01, in the
   * clinic's calendar (extension-accountingPeriod, a date: guide Table 10). Written on claims of a
   * care setting (the exchange's), never on a prior authorization.
   */
  accountingPeriod?: string;
  // prescription: a pharmacy claim dispensing a verified prescription names it (Claim.prescription,
  // guide 7.11 point 4) by the payer's reference of the verification (docs/decisions/116).
  prescriptionRef?: string;
  // transfer: transfer of care (guide 7.3, Table 37) — the referring prior authorization's flag, and the
  // receiving facility's referral (reason for visit `referral`, the referring provider's name in
  // Claim.referral.display, the transfer authorization in preAuthRefs and its date).
  transfer?: boolean;
  referral?: { providerName: string; authorizationDate?: string };
  // newborn: a baby billed under the mother's coverage (extension-newborn, guide 6.5)
  /** The patient is a newborn under the mother's coverage; the birth weight (kg) goes on the birth encounter's prior authorization or claim (supportingInfo birth-weight). */
  newborn?: { birthWeightKg?: number };
  // offline: what the insurer gave when the exchange could not be reached (guide Table 10)
  /** An offline eligibility (its reference and date) and an offline authorization (its reference, sent as preAuthRef, and date); dates YYYY-MM-DD or ISO date-times. */
  offline?: { eligibility?: { reference: string; date: string }; authorization?: { reference: string; date: string } };
  /**
   * A prior authorization asked again after a partial approval or a refusal (guide 7.3.1, Table 37:
   * "send any additional supporting information to justify the medical necessity"): the clinic's
   * words, as supportingInfo `info` with the text (Table 35) — the category an appeal's justification uses.
   */
  justification?: string;
}

/** A newborn's birth weight (guide 6.5; Table 35 birth-weight, BV-00509: kilograms in UCUM). */
function newbornInfo(kg: number | undefined): Omit<ClaimSupportingInfo, "sequence">[] {
  if (kg === undefined) return [];
  return [{ category: coding(SYSTEMS.claimInformationCategory, "birth-weight"), valueQuantity: { value: kg, system: SYSTEMS.ucum, code: "kg", unit: "kg" } }];
}

/** Identifier systems the portal names its own records by (vision prescriptions, episodes). */
export const VISION_PRESCRIPTION_SYSTEM = `${PORTAL_URI_BASE}/vision-prescription`;
export const EPISODE_SYSTEM = `${PORTAL_URI_BASE}/episode`;
/** The clinic's own numbers of its visits (the contained Encounter's identifier) and its invoices (extension-patientInvoice). */
export const ENCOUNTER_SYSTEM = `${PORTAL_URI_BASE}/encounter`;
export const PATIENT_INVOICE_SYSTEM = `${PORTAL_URI_BASE}/patientInvoice`;

const coding = (system: string, code: string) => ({ coding: [{ system, code }] });

/**
 * Form values → the Claim exactly as the spec lists it (used for prior authorization and for
 * claims alike): identifier, status `active`, type `institutional`, use, patient, created (UTC),
 * provider, priority `normal`, insurance[sequence, focal, coverage(, preAuthRef)],
 * diagnosis[ICD-10-AM], procedure[CPT], item[sequence, productOrService, servicedDate, quantity,
 * unitPrice] and supportingInfo[sequence, category `attachment`, valueAttachment{contentType,
 * data, title, creation}]. Money goes on the wire as riyals converted from integer halalas.
 */
export function buildClaim(input: ClaimInput): Claim {
  const offlineAuthorization = input.offline?.authorization;
  const preAuthRefs = [...new Set([...(input.preAuthRefs ?? []), ...(offlineAuthorization ? [offlineAuthorization.reference] : [])])];
  const birthWeight = input.newborn?.birthWeightKg;
  if (birthWeight !== undefined && !(Number.isFinite(birthWeight) && birthWeight > 0)) throw new Error(`bad birth weight ${birthWeight}`);
  const attachments = input.attachments ?? [];
  for (const item of input.items) {
    if (!Number.isSafeInteger(item.unitPriceMinor) || item.unitPriceMinor < 0) throw new Error(`bad unit price ${item.unitPriceMinor}`);
    if (!Number.isInteger(item.quantity) || item.quantity < 1) throw new Error(`bad quantity ${item.quantity}`);
    for (const extra of [item.taxMinor, item.patientShareMinor]) if (extra !== undefined && (!Number.isSafeInteger(extra) || extra < 0)) throw new Error(`bad amount ${extra}`);
  }
  if (input.accountingPeriod !== undefined && !/^\d{4}-(0[1-9]|1[0-2])-01$/.test(input.accountingPeriod)) throw new Error(`bad accounting period ${input.accountingPeriod}`);
  const setting = input.careSetting;
  const encounter = setting?.clinical ? containedEncounter(setting, input.items) : undefined;
  const referralInfo = input.referral ? [{ category: coding(SYSTEMS.claimInformationCategory, "reason-for-visit"), code: coding(SYSTEMS.visitReason, "referral") }] : [];
  const justificationInfo = input.justification?.trim() ? [{ category: coding(SYSTEMS.claimInformationCategory, "info"), valueString: input.justification.trim() }] : [];
  const supportingInfo = [...careSettingInfo(setting), ...clinicalInfo(setting, encounter), ...referralInfo, ...newbornInfo(birthWeight), ...justificationInfo, ...attachments.map((a) => ({
    category: coding(CODE_SYSTEMS.supportingInfoCategory, "attachment"),
    valueAttachment: {
      contentType: a.contentType,
      data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).toString("base64"),
      title: a.title,
      creation: a.creation.toISOString(),
    },
  }))].map((info, i): ClaimSupportingInfo => ({ sequence: i + 1, ...info }));
  const careTeam = (setting?.careTeam ?? []).map((member, i) => ({
    sequence: i + 1,
    provider: {
      reference: `Practitioner/${member.practitionerId}`,
      ...(member.license ? { identifier: { system: LICENSES.practitioner, value: member.license } } : {}),
      ...(member.name ? { display: member.name } : {}),
    },
    role: coding(SYSTEMS.careTeamRole, i === 0 ? "primary" : "assist"),
    qualification: coding(SYSTEMS.practiceCodes, member.specialty),
  }));
  const infoSequences = supportingInfo.filter((s) => !s.valueAttachment).map((s) => s.sequence);
  const items = input.items.map((item, i) => claimItem(item, i, setting, careTeam.length > 0 ? [1] : [], infoSequences));
  const total = setting ? items.reduce((sum, item) => sum + netMinor(input.items[item.sequence - 1]!), 0) : undefined;
  const extension: Extension[] = [
    ...(setting?.episode ? [{ url: EXTENSIONS.episode, valueIdentifier: { system: EPISODE_SYSTEM, value: setting.episode } }] : []),
    // The visit's Encounter travels contained; the message assembly makes it an entry (docs/decisions/103).
    ...(encounter ? [{ url: EXTENSIONS.encounter, valueReference: { reference: `#${encounter.id}` } }] : []),
    ...(setting && input.use === "claim" && input.accountingPeriod ? [{ url: EXTENSIONS.accountingPeriod, valueDate: input.accountingPeriod }] : []),
    ...(input.transfer ? [{ url: EXTENSIONS.transfer, valueBoolean: true }] : []),
    ...(input.newborn ? [{ url: EXTENSIONS.newborn, valueBoolean: true }] : []),
    ...(input.offline?.eligibility
      ? [
          { url: EXTENSIONS.eligibilityOfflineReference, valueString: input.offline.eligibility.reference },
          { url: EXTENSIONS.eligibilityOfflineDate, valueDateTime: input.offline.eligibility.date },
        ]
      : []),
    // The authorization's date: an offline authorization's, else a referral's transfer authorization's (one extension).
    ...(offlineAuthorization
      ? [{ url: EXTENSIONS.authorizationOfflineDate, valueDateTime: offlineAuthorization.date }]
      : input.referral?.authorizationDate
        ? [{ url: EXTENSIONS.authorizationOfflineDate, valueDateTime: input.referral.authorizationDate }]
        : []),
  ];
  const onsets = setting?.clinical?.conditionOnset ?? {};
  const accident = setting?.clinical?.accident;
  return {
    resourceType: "Claim",
    ...(encounter ? { contained: [encounter] } : {}),
    ...(extension.length > 0 ? { extension } : {}),
    identifier: input.identifier ? [{ system: input.identifier.system, value: input.identifier.value }] : [],
    status: "active",
    type: coding(CODE_SYSTEMS.claimType, setting?.type ?? "institutional"),
    ...(setting ? { subType: coding(SYSTEMS.claimSubtype, setting.subtype) } : {}),
    use: input.use,
    patient: patientReference(input.nationalId),
    ...(setting?.stay ? { billablePeriod: { start: setting.stay.start, ...(setting.stay.end ? { end: setting.stay.end } : {}) } } : {}),
    created: input.created.toISOString(),
    provider: organizationReference(input.providerOrgId),
    priority: coding(CODE_SYSTEMS.processPriority, "normal"),
    ...(input.prescriptionRef ? { prescription: prescriptionReference(input.prescriptionRef) } : {}),
    ...(setting?.visionPrescription && !input.prescriptionRef ? { prescription: { type: "VisionPrescription", identifier: { system: VISION_PRESCRIPTION_SYSTEM, value: setting.visionPrescription } } } : {}),
    ...(setting ? { payee: { type: coding(SYSTEMS.payeeType, "provider") } } : {}),
    ...(input.referral ? { referral: { display: input.referral.providerName } } : {}),
    ...(careTeam.length > 0 ? { careTeam } : {}),
    ...(supportingInfo.length > 0 ? { supportingInfo } : {}),
    insurance: [
      {
        sequence: 1,
        focal: true,
        coverage: { reference: `Coverage/${input.coverageRef}` },
        ...(preAuthRefs.length > 0 ? { preAuthRef: preAuthRefs } : {}),
      },
    ],
    diagnosis: input.diagnoses.map((code, i) => {
      const onAdmission = setting?.onAdmission && Object.hasOwn(setting.onAdmission, code) ? setting.onAdmission[code] : undefined;
      const onset = setting && mdsNeeds(setting.type, setting.subtype, input.use).conditionOnset && Object.hasOwn(onsets, code) ? onsets[code] : undefined;
      return {
        sequence: i + 1,
        ...(onset ? { extension: [{ url: MDS_EXTENSIONS.conditionOnset, valueCodeableConcept: coding(MDS_SYSTEMS.conditionOnset, onset) }] } : {}),
        diagnosisCodeableConcept: coding(CODE_SYSTEMS.icd10am, code),
        // The first diagnosis is the principal one, the others secondary (ex-diagnosistype).
        ...(setting ? { type: [coding(SYSTEMS.diagnosisType, i === 0 ? "principal" : "secondary")] } : {}),
        ...(onAdmission ? { onAdmission: { coding: [{ system: SYSTEMS.diagnosisOnAdmission, code: onAdmission, display: DIAGNOSIS_ON_ADMISSION[onAdmission].en }] } } : {}),
      };
    }),
    ...(input.prior && (input.prior.platformId || input.prior.identifier?.value)
      ? {
          related: [
            {
              claim: {
                ...(input.prior.platformId ? { reference: `Claim/${input.prior.platformId}` } : {}),
                ...(input.prior.identifier?.value ? { identifier: { ...(input.prior.identifier.system ? { system: input.prior.identifier.system } : {}), value: input.prior.identifier.value } } : {}),
              },
              relationship: coding(CODE_SYSTEMS.relatedClaimRelationship, "prior"),
            },
          ],
        }
      : {}),
    ...(accident?.type && accident.date ? { accident: { date: accident.date, type: coding(MDS_SYSTEMS.accidentType, accident.type) } } : {}),
    ...(input.procedures.length > 0
      ? { procedure: input.procedures.map((code, i) => ({ sequence: i + 1, procedureCodeableConcept: coding(CODE_SYSTEMS.cpt, code) })) }
      : {}),
    item: items,
    ...(total !== undefined ? { total: money(total, PLATFORM_CURRENCY) } : {}),
  };
}

/** item.net in halalas: quantity × unit price + VAT, exactly. */
const netMinor = (item: ClaimItemInput): number => item.quantity * item.unitPriceMinor + (item.taxMinor ?? 0);

/** The supporting information a care setting records (chief complaint, days of supply, an inpatient stay's estimated length). */
function careSettingInfo(setting: CareSettingInput | undefined): Omit<ClaimSupportingInfo, "sequence">[] {
  if (!setting) return [];
  const category = (code: string) => coding(SYSTEMS.claimInformationCategory, code);
  return [
    ...(setting.chiefComplaint ? [{ category: category("chief-complaint"), code: { text: setting.chiefComplaint } }] : []),
    ...(setting.daysSupply !== undefined
      ? [{ category: category("days-supply"), valueQuantity: { value: setting.daysSupply, unit: "d", system: SYSTEMS.ucum, code: "d" } }]
      : []),
    ...(setting.estimatedStayDays !== undefined
      ? [{ category: category("estimated-Length-of-Stay"), valueQuantity: { value: setting.estimatedStayDays, unit: "d", system: SYSTEMS.ucum, code: "d" } }]
      : []),
  ];
}

function claimItem(item: ClaimItemInput, i: number, setting: CareSettingInput | undefined, careTeamSequence: number[], infoSequences: number[]): ClaimItem {
  const extension: Extension[] = [
    ...(item.taxMinor !== undefined ? [{ url: EXTENSIONS.tax, valueMoney: money(item.taxMinor, PLATFORM_CURRENCY) }] : []),
    ...(item.patientShareMinor !== undefined ? [{ url: EXTENSIONS.patientShare, valueMoney: money(item.patientShareMinor, PLATFORM_CURRENCY) }] : []),
    ...(setting ? [{ url: EXTENSIONS.package, valueBoolean: item.package === true }] : []),
    // The Minimum Data Set: every line of an institutional, professional or pharmacy request says whether it is maternity care.
    ...(setting?.clinical && mdsNeeds(setting.type, setting.subtype, "claim").maternity ? [{ url: MDS_EXTENSIONS.maternity, valueBoolean: item.maternity === true }] : []),
    ...(item.substitution
      ? [
          { url: EXTENSIONS.prescribedMedication, valueCodeableConcept: coding(item.substitution.prescribed.system, item.substitution.prescribed.code) },
          { url: EXTENSIONS.pharmacistSelectionReason, valueCodeableConcept: coding(SYSTEMS.pharmacistSelectionReason, item.substitution.reason) },
          { url: EXTENSIONS.pharmacistSubstitute, valueCodeableConcept: coding(SYSTEMS.pharmacistSubstitute, item.substitution.substitute) },
        ]
      : []),
    ...(item.invoice ? [{ url: MDS_EXTENSIONS.patientInvoice, valueIdentifier: { system: PATIENT_INVOICE_SYSTEM, value: item.invoice } }] : []),
  ];
  return {
    sequence: i + 1,
    ...(extension.length > 0 ? { extension } : {}),
    ...(careTeamSequence.length > 0 ? { careTeamSequence } : {}),
    ...(setting && infoSequences.length > 0 ? { informationSequence: infoSequences } : {}),
    productOrService: coding(item.system ?? CODE_SYSTEMS.cpt, item.code),
    ...(item.performed ? { servicedPeriod: { start: item.servicedDate } } : { servicedDate: item.servicedDate }),
    quantity: { value: item.quantity },
    unitPrice: money(item.unitPriceMinor, PLATFORM_CURRENCY),
    ...(setting ? { net: money(netMinor(item), PLATFORM_CURRENCY) } : {}),
    ...(item.tooth ? { bodySite: coding(SYSTEMS.fdiOralRegion, item.tooth) } : {}),
  };
}

/** A datetime-local value ("2026-11-20T08:00") or a date, as the exchange's dateTime (seconds given: guide 9.19 notes). */
function moment(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const iso = value.length === 10 ? value : new Date(`${value}${value.length === 16 ? ":00" : ""}Z`).toISOString().replace(/\.\d{3}Z$/, "Z");
  return /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso : undefined;
}

/** The intended length of stay the exchange codes (its intended-length-of-stay system): an inpatient stay overnight, a day case the same day. */
const INTENDED_STAY_BY_CLASS: Readonly<Record<string, string>> = { IMP: "IO", SS: "ISD" };

/**
 * The visit's Encounter (guide 9.19, the Minimum Data Set), contained in the Claim as `#encounter`:
 * its class (the one the care setting allows, else the form's), period (the stay, else the
 * emergency's start, else the first line's day), service event type, the emergency's triage,
 * arrival, service start and disposition, the stay's hospitalization (admit source, admission and
 * discharge specialty, intended length of stay, discharge disposition) and the cause of death.
 * Its identifier, subject and service provider are the message assembly's (it knows the parties).
 */
function containedEncounter(setting: CareSettingInput, items: readonly ClaimItemInput[]): Encounter | undefined {
  const facts = setting.clinical;
  const allowed = encounterClassesFor(setting.type, setting.subtype);
  if (!facts || allowed.length === 0) return undefined;
  const e = facts.encounter ?? { class: "" };
  const encounterClass = e.class && allowed.includes(e.class) ? e.class : allowed.length === 1 ? allowed[0]! : undefined;
  if (!encounterClass) return undefined;
  const firstDay = items.map((i) => i.servicedDate).filter(Boolean).sort()[0];
  const start = setting.stay?.start ?? moment(e.emergencyServiceStart) ?? moment(e.triageDate) ?? moment(e.start) ?? firstDay;
  if (!start) return undefined;
  const end = setting.stay?.end;
  const code = (system: string, value: string | undefined) => (value ? { coding: [{ system, code: value }] } : undefined);
  const concept = (url: string, system: string, value: string | undefined): Extension[] => (value ? [{ url, valueCodeableConcept: { coding: [{ system, code: value }] } }] : []);
  const dateTime = (url: string, value: string | undefined): Extension[] => {
    const at = moment(value);
    return at ? [{ url, valueDateTime: at }] : [];
  };
  const died = DEATH_DISPOSITIONS.includes(e.dischargeDisposition ?? "") || DEATH_DISPOSITIONS.includes(e.emergencyDisposition ?? "");
  const extension: Extension[] = [
    ...concept(MDS_EXTENSIONS.serviceEventType, MDS_SYSTEMS.serviceEventType, e.serviceEventType),
    ...(encounterClass === "EMER"
      ? [
          ...concept(MDS_EXTENSIONS.triageCategory, MDS_SYSTEMS.triageCategory, e.triageCategory),
          ...dateTime(MDS_EXTENSIONS.triageDate, e.triageDate),
          ...concept(MDS_EXTENSIONS.emergencyArrivalCode, MDS_SYSTEMS.emergencyArrivalCode, e.arrivalCode),
          ...dateTime(MDS_EXTENSIONS.emergencyServiceStart, e.emergencyServiceStart),
          ...concept(MDS_EXTENSIONS.emergencyDepartmentDisposition, MDS_SYSTEMS.emergencyDepartmentDisposition, e.emergencyDisposition),
        ]
      : []),
    ...(died ? concept(MDS_EXTENSIONS.causeOfDeath, CODE_SYSTEMS.icd10am, e.causeOfDeath) : []),
  ];
  const stays = encounterClass === "IMP" || encounterClass === "SS";
  const hospitalizationExtension: Extension[] = stays
    ? [
        ...concept(MDS_EXTENSIONS.admissionSpecialty, SYSTEMS.practiceCodes, e.admissionSpecialty),
        ...concept(MDS_EXTENSIONS.intendedLengthOfStay, MDS_SYSTEMS.intendedLengthOfStay, INTENDED_STAY_BY_CLASS[encounterClass]),
        ...(end ? concept(MDS_EXTENSIONS.dischargeSpecialty, SYSTEMS.practiceCodes, e.dischargeSpecialty) : []),
      ]
    : [];
  const admitSource = stays ? code(MDS_SYSTEMS.admitSource, e.admitSource) : undefined;
  const dischargeDisposition = stays && end ? code(MDS_SYSTEMS.dischargeDisposition, e.dischargeDisposition) : undefined;
  return {
    resourceType: "Encounter",
    id: "encounter",
    ...(extension.length > 0 ? { extension } : {}),
    status: end ? "finished" : "in-progress",
    class: { system: SYSTEMS.encounterClass, code: encounterClass },
    period: { start, ...(end ? { end } : {}) },
    ...(stays && (hospitalizationExtension.length > 0 || admitSource || dischargeDisposition)
      ? { hospitalization: { ...(hospitalizationExtension.length > 0 ? { extension: hospitalizationExtension } : {}), ...(admitSource ? { admitSource } : {}), ...(dischargeDisposition ? { dischargeDisposition } : {}) } }
      : {}),
  };
}

/**
 * The visit's supporting information of Table 35 (guide 6.3.11): each vital sign a value in its
 * UCUM unit or its absence reason (`reason`), measured over the encounter's period (Period 3);
 * the clinical notes (valueString); the investigation result (its code, "Other" with its text);
 * the morphology; an inpatient baby's admission weight.
 */
function clinicalInfo(setting: CareSettingInput | undefined, encounter: Encounter | undefined): Omit<ClaimSupportingInfo, "sequence">[] {
  const facts = setting?.clinical;
  if (!setting || !facts) return [];
  const category = (code: string) => coding(SYSTEMS.claimInformationCategory, code);
  const period = encounter?.period?.start ? { start: encounter.period.start, ...(encounter.period.end ? { end: encounter.period.end } : {}) } : undefined;
  const out: Omit<ClaimSupportingInfo, "sequence">[] = [];
  for (const sign of VITAL_SIGN_KEYS) {
    const given = facts.vitalSigns?.[sign];
    const value = given?.value ? Number(given.value) : undefined;
    const unit = VITAL_SIGNS[sign].unit;
    if (value !== undefined && Number.isFinite(value)) out.push({ category: category(sign), ...(period ? { timingPeriod: period } : {}), valueQuantity: { value, system: SYSTEMS.ucum, code: unit, unit } });
    else if (given?.absent) out.push({ category: category(sign), reason: coding(MDS_SYSTEMS.absenceReason(sign), given.absent) });
  }
  for (const [note, text] of Object.entries(facts.notes ?? {})) if (text) out.push({ category: category(note), valueString: text });
  if (facts.investigation?.code) {
    out.push({ category: category("investigation-result"), code: { ...coding(MDS_SYSTEMS.investigationResult, facts.investigation.code), ...(facts.investigation.text ? { text: facts.investigation.text } : {}) } });
  }
  if (facts.morphology) out.push({ category: category("morphology"), code: coding(MDS_SYSTEMS.morphologyCode, facts.morphology) });
  const weight = facts.admissionWeight ? Number(facts.admissionWeight) : undefined;
  if (setting.subtype === "ip" && setting.type === "institutional" && weight !== undefined && Number.isFinite(weight)) {
    out.push({ category: category("admission-weight"), valueQuantity: { value: weight, system: SYSTEMS.ucum, code: "kg", unit: "kg" } });
  }
  return out;
}

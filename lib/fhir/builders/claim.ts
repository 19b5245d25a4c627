import type { Claim, ClaimItem, ClaimSupportingInfo, Extension } from "@medplum/fhirtypes";
import { money } from "../money";
import { organizationReference, patientReference } from "../references";
import { CODE_SYSTEMS, PLATFORM_CURRENCY, PORTAL_URI_BASE } from "../systems";
import { EXTENSIONS } from "../nphies/extensions";
import type { ClaimType } from "../nphies/profiles";
import { DIAGNOSIS_ON_ADMISSION, LICENSES, SYSTEMS, type ClaimSubtype, type DiagnosisOnAdmission } from "../nphies/terminology";

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
}

/** Identifier systems the portal names its own records by (vision prescriptions, episodes). */
export const VISION_PRESCRIPTION_SYSTEM = `${PORTAL_URI_BASE}/vision-prescription`;
export const EPISODE_SYSTEM = `${PORTAL_URI_BASE}/episode`;

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
  const preAuthRefs = [...new Set(input.preAuthRefs ?? [])];
  const attachments = input.attachments ?? [];
  for (const item of input.items) {
    if (!Number.isSafeInteger(item.unitPriceMinor) || item.unitPriceMinor < 0) throw new Error(`bad unit price ${item.unitPriceMinor}`);
    if (!Number.isInteger(item.quantity) || item.quantity < 1) throw new Error(`bad quantity ${item.quantity}`);
    for (const extra of [item.taxMinor, item.patientShareMinor]) if (extra !== undefined && (!Number.isSafeInteger(extra) || extra < 0)) throw new Error(`bad amount ${extra}`);
  }
  const setting = input.careSetting;
  const supportingInfo = [...careSettingInfo(setting), ...attachments.map((a) => ({
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
  const extension: Extension[] = setting?.episode ? [{ url: EXTENSIONS.episode, valueIdentifier: { system: EPISODE_SYSTEM, value: setting.episode } }] : [];
  return {
    resourceType: "Claim",
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
    ...(setting?.visionPrescription ? { prescription: { type: "VisionPrescription", identifier: { system: VISION_PRESCRIPTION_SYSTEM, value: setting.visionPrescription } } } : {}),
    ...(setting ? { payee: { type: coding(SYSTEMS.payeeType, "provider") } } : {}),
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
      return {
        sequence: i + 1,
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
  ];
  return {
    sequence: i + 1,
    ...(extension.length > 0 ? { extension } : {}),
    ...(careTeamSequence.length > 0 ? { careTeamSequence } : {}),
    ...(setting && infoSequences.length > 0 ? { informationSequence: infoSequences } : {}),
    productOrService: coding(item.system ?? CODE_SYSTEMS.cpt, item.code),
    servicedDate: item.servicedDate,
    quantity: { value: item.quantity },
    unitPrice: money(item.unitPriceMinor, PLATFORM_CURRENCY),
    ...(setting ? { net: money(netMinor(item), PLATFORM_CURRENCY) } : {}),
    ...(item.tooth ? { bodySite: coding(SYSTEMS.fdiOralRegion, item.tooth) } : {}),
  };
}

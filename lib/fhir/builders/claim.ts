import type { Claim } from "@medplum/fhirtypes";
import { money } from "../money";
import { EXTENSIONS } from "../nphies/extensions";
import { organizationReference, patientReference } from "../references";
import { CODE_SYSTEMS, PLATFORM_CURRENCY } from "../systems";

export type ClaimUse = "preauthorization" | "claim";

export interface ClaimItemInput {
  /** CPT code of the service. */
  code: string;
  /** YYYY-MM-DD. */
  servicedDate: string;
  /** Whole number of units. */
  quantity: number;
  /** Unit price in minor units (halalas): exact, converted to the wire number once. */
  unitPriceMinor: number;
  /** The patient's share of the line and the line's VAT (docs/decisions/091): the exchange's patient-share and tax extensions. */
  patientShareMinor?: number;
  taxMinor?: number;
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
}

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
  }
  return {
    resourceType: "Claim",
    identifier: input.identifier ? [{ system: input.identifier.system, value: input.identifier.value }] : [],
    status: "active",
    type: coding(CODE_SYSTEMS.claimType, "institutional"),
    use: input.use,
    patient: patientReference(input.nationalId),
    created: input.created.toISOString(),
    provider: organizationReference(input.providerOrgId),
    priority: coding(CODE_SYSTEMS.processPriority, "normal"),
    insurance: [
      {
        sequence: 1,
        focal: true,
        coverage: { reference: `Coverage/${input.coverageRef}` },
        ...(preAuthRefs.length > 0 ? { preAuthRef: preAuthRefs } : {}),
      },
    ],
    diagnosis: input.diagnoses.map((code, i) => ({ sequence: i + 1, diagnosisCodeableConcept: coding(CODE_SYSTEMS.icd10am, code) })),
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
    item: input.items.map((item, i) => ({
      sequence: i + 1,
      productOrService: coding(CODE_SYSTEMS.cpt, item.code),
      servicedDate: item.servicedDate,
      quantity: { value: item.quantity },
      unitPrice: money(item.unitPriceMinor, PLATFORM_CURRENCY),
      ...(item.patientShareMinor !== undefined || item.taxMinor !== undefined
        ? {
            extension: [
              ...(item.patientShareMinor !== undefined ? [{ url: EXTENSIONS.patientShare, valueMoney: money(item.patientShareMinor, PLATFORM_CURRENCY) }] : []),
              ...(item.taxMinor !== undefined ? [{ url: EXTENSIONS.tax, valueMoney: money(item.taxMinor, PLATFORM_CURRENCY) }] : []),
            ],
          }
        : {}),
    })),
    ...(attachments.length > 0
      ? {
          supportingInfo: attachments.map((a, i) => ({
            sequence: i + 1,
            category: coding(CODE_SYSTEMS.supportingInfoCategory, "attachment"),
            valueAttachment: {
              contentType: a.contentType,
              data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).toString("base64"),
              title: a.title,
              creation: a.creation.toISOString(),
            },
          })),
        }
      : {}),
  };
}

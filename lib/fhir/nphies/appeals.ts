import type { Claim, ClaimRelated, ClaimSupportingInfo } from "@medplum/fhirtypes";
import { SYSTEMS } from "./terminology";

/**
 * Appeals as the exchange carries them (docs/decisions/081): a new Claim that names the decided
 * one in `Claim.related` with relationship `prior` of the exchange's related-claim-relationship
 * code system (the same relationship its resubmissions use), the clinic's written justification as
 * supportingInfo category `info` (valueString) and the supporting files as category `attachment`
 * (valueAttachment), both of the exchange's claim-information-category system. Shared by the
 * portal (which writes it) and the sandbox (which decides it).
 */
export const APPEAL_RELATIONSHIP = "prior";
export const APPEAL_JUSTIFICATION_CATEGORY = "info";
export const APPEAL_EVIDENCE_CATEGORY = "attachment";
/** HL7's own relationship system: the portal's fix-and-resubmit names the prior claim with it (decisions 045–048). */
const HL7_RELATIONSHIP = SYSTEMS.relatedClaimRelationship;

/** `Claim.related` naming a prior claim by its platform id (when known) and our business identifier. */
export function appealRelated(prior: { platformId?: string; identifier: { system?: string; value: string } }): ClaimRelated {
  return {
    claim: {
      ...(prior.platformId ? { reference: `Claim/${prior.platformId}` } : {}),
      identifier: { ...(prior.identifier.system ? { system: prior.identifier.system } : {}), value: prior.identifier.value },
    },
    relationship: { coding: [{ system: SYSTEMS.relatedClaimRelationshipExchange, code: APPEAL_RELATIONSHIP }] },
  };
}

export const justificationInfo = (sequence: number, text: string): ClaimSupportingInfo => ({
  sequence,
  category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: APPEAL_JUSTIFICATION_CATEGORY }] },
  valueString: text,
});

export const evidenceInfo = (sequence: number, file: { contentType: string; data: string; title?: string; creation?: string }): ClaimSupportingInfo => ({
  sequence,
  category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: APPEAL_EVIDENCE_CATEGORY }] },
  valueAttachment: { contentType: file.contentType, data: file.data, ...(file.title ? { title: file.title } : {}), ...(file.creation ? { creation: file.creation } : {}) },
});

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === "object" && x !== null) : []);
const codingsOf = (v: unknown): Json[] => list((v as Json | undefined)?.coding);

/** The prior claims a Claim names (relationship `prior`, of the exchange's system or HL7's): their reference ids and identifiers. */
export function priorClaimsOf(claim: Claim | Json): { id?: string; identifier?: { system?: string; value: string } }[] {
  return list((claim as Json).related).flatMap((r) => {
    const prior = codingsOf(r.relationship).some((c) => c.code === APPEAL_RELATIONSHIP && (c.system === SYSTEMS.relatedClaimRelationshipExchange || c.system === HL7_RELATIONSHIP));
    if (!prior) return [];
    const ref = (r.claim as Json | undefined) ?? {};
    const id = typeof ref.reference === "string" ? /(?:^|\/)Claim\/([^/]+)$/.exec(ref.reference)?.[1] : undefined;
    const identifier = ref.identifier as Json | undefined;
    const value = typeof identifier?.value === "string" && identifier.value ? identifier.value : undefined;
    if (!id && !value) return [];
    return [{ ...(id ? { id } : {}), ...(value ? { identifier: { ...(typeof identifier?.system === "string" ? { system: identifier.system } : {}), value } } : {}) }];
  });
}

/**
 * What an appeal argues with: its justification (the first non-blank `info` text) and how many
 * supporting files it carries (`attachment` entries with data or a URL). Categories of the
 * exchange's system or HL7's are both read.
 */
export function appealEvidenceOf(claim: Claim | Json): { justification?: string; files: number } {
  let justification: string | undefined;
  let files = 0;
  for (const info of list((claim as Json).supportingInfo)) {
    const codes = codingsOf(info.category).map((c) => c.code);
    if (codes.includes(APPEAL_JUSTIFICATION_CATEGORY) && typeof info.valueString === "string" && info.valueString.trim() && justification === undefined) justification = info.valueString.trim();
    const attachment = info.valueAttachment as Json | undefined;
    if (codes.includes(APPEAL_EVIDENCE_CATEGORY) && attachment && ((typeof attachment.data === "string" && attachment.data.length > 0) || (typeof attachment.url === "string" && attachment.url.length > 0))) files++;
  }
  return { ...(justification ? { justification } : {}), files };
}

import type { Claim, ClaimCareTeam, ClaimItem } from "@medplum/fhirtypes";
import { money, toMinorUnits } from "../../money";
import { EXTENSIONS } from "../extensions";
import { claimProfile, isClaimType } from "../profiles";
import { CODE_SYSTEMS } from "../../systems";
import { SYSTEMS } from "../terminology";
import type { CareSetting, MessageParties } from "./facts";
import { ref } from "./resources";

const concept = (system: string, code: string) => ({ coding: [{ system, code }] });

/** Minor units of a Money value (undefined when absent or not exact to the halala). */
const minorOf = (value: { value?: number } | undefined): number | undefined => (typeof value?.value === "number" ? toMinorUnits(value.value) : undefined);

/** item.net = quantity × unitPrice × factor + tax, exactly (in halalas); undefined when the price is unknown. */
function netOf(item: ClaimItem): number | undefined {
  const unit = minorOf(item.unitPrice);
  if (unit === undefined) return undefined;
  const tax = minorOf(item.extension?.find((e) => e.url === EXTENSIONS.tax)?.valueMoney) ?? 0;
  return Math.round(unit * (item.quantity?.value ?? 1) * (item.factor ?? 1)) + tax;
}

/**
 * A Claim as the exchange takes it, from the portal's Claim and its parties: the profile of its
 * care setting and use, type and subtype, every party referenced as an entry of the message
 * (patient, insurer, provider, coverage, practitioners of the care team, the facility), payee,
 * diagnosis roles (the first principal, the others secondary, unless given), item.net and total.
 * What the clinic did not record (chief complaint, encounter of an inpatient stay …) is not
 * invented: the rule checker names it (docs/decisions/074).
 */
export function assembleClaim(claim: Claim, parties: MessageParties, setting?: CareSetting): Claim {
  const use = claim.use === "preauthorization" ? "preauthorization" : "claim";
  // The care setting given, else the one the claim names (the portal's forms: institutional today).
  const named = claim.type?.coding?.find((c) => c.system === SYSTEMS.claimType)?.code;
  const type = setting?.type ?? (isClaimType(named) ? named : undefined);
  const practitioners = parties.practitioners ?? [];
  const careTeam: ClaimCareTeam[] | undefined =
    claim.careTeam ??
    (practitioners.length > 0
      ? practitioners.map((p, i) => ({
          sequence: i + 1,
          provider: ref("Practitioner", p.id),
          role: concept(SYSTEMS.careTeamRole, i === 0 ? "primary" : "assist"),
          qualification: concept(SYSTEMS.practiceCodes, p.specialty),
        }))
      : undefined);
  const items = (claim.item ?? []).map((item) => {
    const net = item.net ? undefined : netOf(item);
    return {
      ...item,
      ...(careTeam && !item.careTeamSequence ? { careTeamSequence: [careTeam[0]!.sequence] } : {}),
      ...(net !== undefined ? { net: money(net, item.unitPrice?.currency ?? "SAR") } : {}),
    };
  });
  // The spec's supporting-information categories (HL7 `attachment`, `info`) in the exchange's own
  // category system, where the portal's REST-shaped Claim gave only the HL7 one.
  const supportingInfo = claim.supportingInfo?.map((info) => {
    if (info.category?.coding?.some((c) => c.system === SYSTEMS.claimInformationCategory)) return info;
    const hl7 = info.category?.coding?.find((c) => c.system === CODE_SYSTEMS.supportingInfoCategory && (c.code === "attachment" || c.code === "info"));
    return hl7?.code ? { ...info, category: concept(SYSTEMS.claimInformationCategory, hl7.code) } : info;
  });
  const nets = items.map((i) => minorOf(i.net));
  const total = claim.total ?? (nets.length > 0 && nets.every((n) => n !== undefined) ? money(nets.reduce<number>((s, n) => s + n!, 0)) : undefined);
  const encounter = parties.encounter && !claim.extension?.some((e) => e.url === EXTENSIONS.encounter)
    ? [{ url: EXTENSIONS.encounter, valueReference: ref("Encounter", parties.encounter.id) }]
    : [];
  return {
    ...claim,
    ...(type ? { meta: { ...claim.meta, profile: [claimProfile(type, use)] } } : {}),
    ...(encounter.length > 0 ? { extension: [...(claim.extension ?? []), ...encounter] } : {}),
    ...(setting ? { type: concept(SYSTEMS.claimType, setting.type) } : {}),
    ...(setting?.subtype ? { subType: concept(SYSTEMS.claimSubtype, setting.subtype) } : {}),
    patient: ref("Patient", parties.patient.id),
    insurer: ref("Organization", parties.insurer.id),
    provider: ref("Organization", parties.provider.id),
    payee: claim.payee ?? { type: concept(SYSTEMS.payeeType, "provider") },
    ...(careTeam ? { careTeam } : {}),
    ...(parties.location && !claim.facility ? { facility: ref("Location", parties.location.id) } : {}),
    insurance: (claim.insurance ?? []).map((insurance, i) => (i === 0 ? { ...insurance, coverage: ref("Coverage", parties.coverage.id) } : insurance)),
    ...(claim.diagnosis
      ? { diagnosis: claim.diagnosis.map((d, i) => (d.type?.length ? d : { ...d, type: [concept(SYSTEMS.diagnosisType, i === 0 ? "principal" : "secondary")] })) }
      : {}),
    ...(supportingInfo ? { supportingInfo } : {}),
    ...(items.length > 0 ? { item: items } : {}),
    ...(total ? { total } : {}),
  };
}

import { CODE_SYSTEMS, ClaimSchema, nphies, type ClaimParsed } from "@/lib/fhir";
import type { MdsCodeLists } from "@/lib/fhir/mds";
import { itemSystemsFor, type PlatformProtocol } from "./care-setting";
import { claimTotalMinor } from "./claim-total";
import { apiClinicalProblem } from "./api-clinical";

/*
 * THE exchange's rules on a Claim before it is stored — one validation for every intake
 * (docs/decisions/129): the form's Claim, built from what staff typed, and a machine API's Claim,
 * as the caller sent it, both pass `checkClaim` and only a `CheckedClaim` enters the intake
 * (`intake.ts`). The form names most of these problems at its own fields first; here they are
 * asked of the Claim itself, so no path of entry can store what the exchange would refuse.
 */

/** The largest total a submission row holds (minor units in a 32-bit integer column). */
export const MAX_TOTAL_MINOR = 2_147_483_647;

/** A rule the Claim breaks: the element (path under Claim), the words for that field, the sentence, a short reason code. */
export interface ClaimRuleProblem {
  path: PropertyKey[];
  field: string;
  message: string;
  reason: "structure" | "care_setting" | "newborn" | "offline" | "referral" | "total";
}

declare const checked: unique symbol;
/** A Claim that passed `checkClaim`: the only kind of Claim the intake takes. */
export type CheckedClaim = ClaimParsed & { readonly [checked]: true };

export interface ClaimRuleContext {
  /** PLATFORM_PROTOCOL: the national exchange's own rules apply in messaging (the spec's REST takes less). */
  protocol: PlatformProtocol;
  /** The visit details' value sets as the catalogue holds them (messaging; absent: the demo lists, decision 118). */
  codeLists?: MdsCodeLists;
}

/**
 * The exchange's rules on an already well-formed Claim: the care setting (claim type, subtype, the
 * lines' code systems, the tooth, the care team; in messaging the Minimum Data Set), a newborn's
 * birth weight in kilograms, the offline approvals' and the transfer of care's extensions, and a
 * total the row can hold. The first problem, or undefined when the Claim fits.
 */
export function claimRuleProblem(claim: ClaimParsed, context: ClaimRuleContext): ClaimRuleProblem | undefined {
  const setting = careSettingProblem(claim, context.protocol, context.codeLists);
  if (setting) return { ...setting, reason: "care_setting" };
  const newborn = newbornProblem(claim);
  if (newborn) return { ...newborn, reason: "newborn" };
  // The offline eligibility and authorization extensions as the exchange takes them (docs/decisions/111).
  const offline = nphies.offlineFindings(claim as unknown as Record<string, unknown>, "Claim").find((f) => f.severity === "error");
  if (offline) return { path: pathOf(offline.expression), field: offline.message, message: `${offline.code}: ${offline.message}`, reason: "offline" };
  // Transfer of care as the guide writes it (7.3, Table 37; decision 120): an incomplete referral names the element.
  const transfer = nphies.transferFindings(claim as unknown as Record<string, unknown>, "Claim").find((f) => f.severity === "error");
  if (transfer) return { path: pathOf(transfer.expression), field: transfer.message, message: `${transfer.code}: ${transfer.message}`, reason: "referral" };
  return totalProblem(claim);
}

/** A total the row's 32-bit column cannot hold. */
function totalProblem(claim: Pick<ClaimParsed, "item">): ClaimRuleProblem | undefined {
  const money = claimTotalMinor({ ...claim });
  return money && Math.abs(money.totalMinor) > MAX_TOTAL_MINOR ? { path: ["item"], field: "total too large", message: "The claim's total is too large.", reason: "total" } : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The one gate of the intake: a Claim (as built or as received) parsed with the FHIR Claim schema
 * and checked with `claimRuleProblem`. A structural problem names its first element.
 */
export function checkClaim(claim: unknown, context: ClaimRuleContext): { ok: true; claim: CheckedClaim } | { ok: false; problem: ClaimRuleProblem } {
  // A prescription (use predetermination, guide 7.11) carries its MedicationRequests as contained
  // resources, which a claim's profile refuses (only the visit's Encounter): its structure is
  // checked without them, and the care setting's rules — a claim's or an authorization's — do not apply.
  const prescription = isObject(claim) && claim.use === "predetermination";
  const parsed = (prescription ? ClaimSchema.omit({ contained: true }) : ClaimSchema).safeParse(claim);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    return { ok: false, problem: { path, field: issue.message, message: `Claim.${path.join(".")}: ${issue.message}`, reason: "structure" } };
  }
  const problem = prescription ? totalProblem(parsed.data) : claimRuleProblem(parsed.data, context);
  // The Claim as it was given, not the schema's output (which keeps only the elements it models).
  return problem ? { ok: false, problem } : { ok: true, claim: claim as CheckedClaim };
}

/** "Claim.item[0].extension[2]" → ["item", 0, "extension", 2]. */
function pathOf(expression: string): PropertyKey[] {
  return expression
    .replace(/^Claim\.?/, "")
    .split(/[.[\]]+/)
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/**
 * A newborn's Claim (extension-newborn, guide 6.5; docs/decisions/110): a birth weight is a
 * valueQuantity in kilograms (UCUM kg, BV-00509) — a weight in grams is refused by name — and, for
 * the national exchange, a newborn's claim or prior authorization of the birth encounter carries
 * one (BV-90024; checked in checkNewbornCoverage, which knows the birth date).
 */
function newbornProblem(claim: ClaimParsed): { path: PropertyKey[]; field: string; message: string } | undefined {
  const infos = claim.supportingInfo ?? [];
  const weights = infos.map((info, i) => ({ info, i })).filter(({ info }) => info.category.coding?.some((c) => c.system === nphies.SYSTEMS.claimInformationCategory && c.code === "birth-weight"));
  for (const { info, i } of weights) {
    const q = info.valueQuantity;
    if (!q || q.system !== nphies.SYSTEMS.ucum || q.code !== "kg" || typeof q.value !== "number" || q.value <= 0) {
      const grams = q?.code === "g" ? ` (found ${q.value ?? "?"} g: send ${typeof q.value === "number" ? q.value / 1000 : "it"} kg)` : "";
      return { path: ["supportingInfo", i, "valueQuantity"], field: `the birth weight in kilograms (${nphies.SYSTEMS.ucum}, kg)${grams}`, message: `Claim.supportingInfo[${i}].valueQuantity: the birth weight is in kilograms (${nphies.SYSTEMS.ucum}, kg)${grams} (BV-00509).` };
    }
  }
  // Whether the weight is required depends on the baby's birth date (the birth encounter, guide
  // 6.5): checked with the patient's record (api-intake.ts checkNewbornCoverage; the form's newbornOf, decision 120).
  return undefined;
}

/** The request's service days (YYYY-MM-DD): each line's date or period start, else the billable period's start. */
export function serviceDaysOf(claim: ClaimParsed): string[] {
  const days = (claim.item ?? []).flatMap((i) => {
    const d = typeof i.servicedDate === "string" ? i.servicedDate : (i as { servicedPeriod?: { start?: unknown } }).servicedPeriod?.start;
    return typeof d === "string" && d.length >= 10 ? [d.slice(0, 10)] : [];
  });
  if (days.length > 0) return days;
  const start = (claim as { billablePeriod?: { start?: unknown } }).billablePeriod?.start;
  return typeof start === "string" && start.length >= 10 ? [start.slice(0, 10)] : [];
}

/** A newborn's birth encounter (a service day on the birth date) without its birth weight, for the national exchange (BV-90024). */
export function birthWeightMissing(claim: ClaimParsed, birthDate: string | undefined, protocol: PlatformProtocol): boolean {
  if (protocol !== "messaging" || !birthDate) return false;
  const hasWeight = (claim.supportingInfo ?? []).some((info) => info.category.coding?.some((c) => c.system === nphies.SYSTEMS.claimInformationCategory && c.code === "birth-weight"));
  return !hasWeight && serviceDaysOf(claim).includes(birthDate);
}

/**
 * The care setting's rules an API Claim must meet before it is stored (docs/decisions/083): a
 * claim type of the exchange, a subtype that setting takes, lines coded in the setting's systems
 * (or CPT, the spec's), a valid tooth where an oral line names one, care team members named as practitioners.
 * The first problem, with its path; undefined when the Claim fits.
 */
function careSettingProblem(claim: ClaimParsed, protocol: PlatformProtocol, codeLists?: MdsCodeLists): { path: PropertyKey[]; field: string; message: string } | undefined {
  const typeIndex = claim.type.coding?.findIndex((c) => c.system === CODE_SYSTEMS.claimType) ?? -1;
  const type = typeIndex >= 0 ? claim.type.coding![typeIndex]!.code : undefined;
  if (!nphies.isClaimType(type)) {
    return { path: ["type"], field: `must be a ${CODE_SYSTEMS.claimType} code: ${nphies.CLAIM_TYPES.join(", ")}`, message: `Claim.type must be one of ${nphies.CLAIM_TYPES.join(", ")} (${CODE_SYSTEMS.claimType}).` };
  }
  const allowed = nphies.SUBTYPES_BY_CLAIM_TYPE[type];
  if (claim.subType) {
    const subtype = claim.subType.coding?.find((c) => c.system === nphies.SYSTEMS.claimSubtype)?.code;
    if (!(allowed as readonly (string | undefined)[]).includes(subtype)) {
      return { path: ["subType"], field: `a ${type} claim takes ${allowed.join(" or ")} (${nphies.SYSTEMS.claimSubtype})`, message: `Claim.subType: a ${type} claim takes ${allowed.join(" or ")}.` };
    }
  }
  if (protocol === "messaging" && (claim.procedure ?? []).length > 0) {
    // The national exchange takes no procedure list (no real request carries Claim.procedure): bill the service as a line.
    return { path: ["procedure"], field: "not taken by the national exchange: bill the service as an item in the exchange's lists", message: "Claim.procedure is not taken by the national exchange: bill each service as a Claim.item coded in the exchange's lists." };
  }
  if (protocol === "messaging") {
    const missing = exchangeMissing(claim, type);
    if (missing) return missing;
  }
  const systems = itemSystemsFor(type, protocol);
  for (const [i, item] of (claim.item ?? []).entries()) {
    const coding = item.productOrService.coding ?? [];
    if (coding.length > 0 && !coding.some((c) => c.system !== undefined && systems.includes(c.system))) {
      return { path: ["item", i, "productOrService"], field: `must be coded in ${systems.join(", ")}`, message: `Claim.item[${i}].productOrService: a ${type} line is coded in one of ${systems.join(", ")}.` };
    }
    const oralLine = coding.some((c) => c.system === nphies.SYSTEMS.oralHealthOp || c.system === nphies.SYSTEMS.oralHealthIp);
    const tooth = item.bodySite?.coding?.find((c) => c.system === nphies.SYSTEMS.fdiOralRegion)?.code;
    // A tooth where the line names one (guide v2.7 requires none: an examination has none).
    if (oralLine && tooth !== undefined && !nphies.isFdiToothCode(tooth)) {
      return { path: ["item", i, "bodySite"], field: `an FDI tooth number (${nphies.SYSTEMS.fdiOralRegion})`, message: `Claim.item[${i}].bodySite: the tooth is an FDI number.` };
    }
  }
  for (const [i, member] of (claim.careTeam ?? []).entries()) {
    if (member.provider.reference !== undefined && !/(?:^|\/)Practitioner\/[A-Za-z0-9\-.]{1,64}$/.test(member.provider.reference)) {
      return { path: ["careTeam", i, "provider"], field: "must reference a Practitioner", message: `Claim.careTeam[${i}].provider must be a Practitioner.` };
    }
  }
  // The exchange's Minimum Data Set of this care setting (docs/decisions/103): what the screens ask, asked of the Claim.
  return protocol === "messaging" ? apiClinicalProblem(claim, type, codeLists) : undefined;
}

/**
 * What the national exchange requires of a claim of this care setting that the Claim leaves out
 * (messaging only; the spec's REST takes the Claim without them): the subtype, the care team
 * (every setting but pharmacy) and the supporting information the setting names (the chief
 * complaint, the days supply; an inpatient prior authorization's estimated length of stay) and,
 * for an inpatient stay, whether each diagnosis was present on admission — refused 422 before
 * anything is stored, as the exchange would refuse it (decision 092).
 */
function exchangeMissing(claim: ClaimParsed, type: nphies.ClaimType): { path: PropertyKey[]; field: string; message: string } | undefined {
  const subtypes = nphies.SUBTYPES_BY_CLAIM_TYPE[type];
  if (!claim.subType) {
    return { path: ["subType"], field: `required by the national exchange: ${subtypes.join(" or ")} (${nphies.SYSTEMS.claimSubtype})`, message: `Claim.subType is required by the national exchange: a ${type} claim takes ${subtypes.join(" or ")}.` };
  }
  if (type !== "pharmacy" && !(claim.careTeam ?? []).length) {
    return { path: ["careTeam"], field: "required by the national exchange: the practitioner who gave the care (licence)", message: `Claim.careTeam is required by the national exchange for a ${type} claim: name the practitioner (Practitioner reference or licence identifier).` };
  }
  const unqualified = (claim.careTeam ?? []).findIndex((member) => !member.qualification?.coding?.some((c) => c.system === nphies.SYSTEMS.practiceCodes && c.code));
  if (unqualified >= 0) {
    return { path: ["careTeam", unqualified, "qualification"], field: `required by the national exchange: the practitioner's speciality (${nphies.SYSTEMS.practiceCodes})`, message: `Claim.careTeam[${unqualified}].qualification is required by the national exchange: the practitioner's speciality (${nphies.SYSTEMS.practiceCodes}).` };
  }
  const subtype = claim.subType.coding?.find((c) => c.system === nphies.SYSTEMS.claimSubtype)?.code;
  const categories = (claim.supportingInfo ?? []).map((info) => info.category.coding?.find((c) => c.system === nphies.SYSTEMS.claimInformationCategory)?.code);
  const needed = nphies.requiredSupportingInfo(type, subtype, claim.use).find((category) => !categories.includes(category));
  if (needed === "estimated-Length-of-Stay") {
    return {
      path: ["supportingInfo"],
      field: `required by the national exchange: estimated-Length-of-Stay, a valueQuantity in whole days (${nphies.SYSTEMS.ucum}, d)`,
      message: `Claim.supportingInfo must carry "estimated-Length-of-Stay" (${nphies.SYSTEMS.claimInformationCategory}, a valueQuantity in days, UCUM d) for an inpatient institutional prior authorization in the national exchange (BV-00802).`,
    };
  }
  if (needed) {
    return { path: ["supportingInfo"], field: `required by the national exchange: ${needed} (${nphies.SYSTEMS.claimInformationCategory})`, message: `Claim.supportingInfo must carry "${needed}" (${nphies.SYSTEMS.claimInformationCategory}) for a ${type} claim in the national exchange.` };
  }
  // Whether each diagnosis was present on admission: required on an inpatient stay (BV-00027); when
  // given on any claim, a code of the exchange's system (IC-90010).
  const required = nphies.requiresOnAdmission(type, subtype);
  const codes = nphies.DIAGNOSIS_ON_ADMISSION_CODES as readonly (string | undefined)[];
  const wrong = (claim.diagnosis ?? []).findIndex(
    (d) => (required || d.onAdmission !== undefined) && !d.onAdmission?.coding?.some((c) => c.system === nphies.SYSTEMS.diagnosisOnAdmission && codes.includes(c.code)),
  );
  if (wrong >= 0) {
    const what = `${codes.join(", ")} of ${nphies.SYSTEMS.diagnosisOnAdmission}`;
    return required
      ? {
          path: ["diagnosis", wrong, "onAdmission"],
          field: `required by the national exchange: whether the diagnosis was present on admission, ${what}`,
          message: `Claim.diagnosis[${wrong}].onAdmission is required by the national exchange on an inpatient institutional claim: ${what} (BV-00027).`,
        }
      : { path: ["diagnosis", wrong, "onAdmission"], field: `the national exchange takes ${what}`, message: `Claim.diagnosis[${wrong}].onAdmission: the national exchange takes ${what}.` };
  }
  return undefined;
}

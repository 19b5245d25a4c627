import type { ClaimResponse, Identifier, OperationOutcomeIssue } from "@medplum/fhirtypes";
import { and, eq, sql } from "drizzle-orm";
import { AppError, issuePath, type FieldIssue } from "@/lib/errors";
import type { Db, SubmissionKind } from "@/lib/db";
import { coverages, submissions } from "@/lib/db";
import { z } from "zod";
import {
  ClaimResponseSchema,
  ClaimSchema,
  ExtensionSchema,
  IdentifierSchema,
  PORTAL_SUBMISSION_ID_SYSTEM,
  PORTAL_SUBMISSION_STATUS_EXTENSION,
  CODE_SYSTEMS,
  checkNationalId,
  nphies,
  PLATFORM_CURRENCY,
  money,
  parseReference,
  platformIssue,
  toMinorUnits,
  type ClaimParsed,
} from "@/lib/fhir";
import { claimIdentifierSystem, itemSystemsFor, type PlatformProtocol } from "@/lib/submissions";
import { claimTotalMinor, claimUseOf } from "@/lib/submissions";
import type { Submission } from "@/lib/submissions";
import { ScrubBlockedError, submit } from "@/lib/submissions";
import { claimLineShares } from "@/lib/contracts";
import { apiClinicalProblem } from "./api-clinical";
import { mdsCodeLists } from "@/lib/terminology";
import type { MdsCodeLists } from "@/lib/fhir/mds";
import { NEWBORN_DAYS, requestCoverageUse } from "@/lib/patients";

/*
 * THE submission of a Claim that arrives through a machine API — the exchange API's
 * `POST /api/exchange/claims/submit` and the gateway's `POST /fhir/Claim` and claim/authorization
 * agents: one validation, one idempotency rule, one acknowledgement, one replay status
 * (docs/decisions/032-one-replay-status.md).
 */

/** The status of a replayed Claim (same caller, same identifier): the same answer as the first time. */
export const API_CLAIM_REPLAY_STATUS = 202;
/** The status of a newly accepted Claim. */
export const API_CLAIM_ACCEPTED_STATUS = 202;

/** The largest total a submission row holds (minor units in a 32-bit integer column). */
const MAX_TOTAL_MINOR = 2_147_483_647;

export interface ApiClaimRules {
  /** The clinic's Organization id at the platform: `provider` of every Claim. */
  providerOrgId: string;
  /** PLATFORM_PROTOCOL: in messaging, a line in CPT is refused (the national exchange does not take it); default rest. */
  protocol?: PlatformProtocol;
  /** Sandbox test identities (1000000000–1000000099) pass the national-ID check only in the sandbox. */
  allowSandboxTestIds: boolean;
  /** The kind the endpoint takes (`use` filled in when absent); undefined: `use` must say claim or preauthorization. */
  kind?: SubmissionKind;
  /** Where the Claim sits in the request, for field paths: `Claim` (FHIR endpoints) or `data.claim` (/query). */
  prefix: string;
  /** The caller's own business identifier is required (exchange API contract, docs/decisions/020). */
  requireIdentifier: boolean;
  /** The visit details' value sets as the catalogue holds them (messaging; absent: the demo lists, decision 118). */
  codeLists?: MdsCodeLists;
}

const KIND_LABEL: Record<SubmissionKind, string> = { claim: "claim", preauthorization: "authorization request", prescription: "prescription" };

function refuse(code: "invalid_request" | "unprocessable", message: string, reason: string, fields: FieldIssue[], issues?: OperationOutcomeIssue[]): AppError {
  return new AppError(code, message, { reason, fields, issues });
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = body;
  for (const p of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[p];
  }
  return current;
}

/** The caller's own business identifier: the first Claim.identifier with a value. */
export function callerIdentifier(identifiers: Identifier[] | undefined): { system?: string; value: string } | undefined {
  const first = identifiers?.find((i) => typeof i.value === "string" && i.value.trim() !== "");
  return first ? { ...(first.system ? { system: first.system } : {}), value: first.value! } : undefined;
}

/**
 * Validates a FHIR Claim sent by an API caller and fills in what the portal owns (`use` for a
 * kind-specific endpoint, `provider` = this clinic). Failures name each field:
 * malformed (not an object, wrong resourceType, a wrong type or format) → 400 `invalid_request`;
 * missing required elements → 422 `unprocessable` (ERR-004 in FHIR); rules (use, provider,
 * national ID, identifier, total) → 422 `unprocessable`.
 */
export function validateApiClaim(input: unknown, rules: ApiClaimRules): { claim: ClaimParsed; kind: SubmissionKind; identifier?: { system?: string; value: string } } {
  const { prefix } = rules;
  const at = (...path: PropertyKey[]) => issuePath(prefix, path);
  if (input === undefined) {
    throw refuse("unprocessable", `${prefix} is required: a FHIR Claim.`, "missing_field", [{ path: prefix, message: "required: a FHIR Claim" }]);
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw refuse("invalid_request", `${prefix} must be a FHIR Claim (a JSON object).`, "not_object", [{ path: prefix, message: "expected a FHIR Claim object" }]);
  }
  const body = { ...(input as Record<string, unknown>) };
  if (body.resourceType !== "Claim") {
    throw refuse("invalid_request", "resourceType must be Claim.", "resource_type", [{ path: at("resourceType"), message: "must be Claim" }]);
  }
  if (rules.kind) {
    if (body.use === undefined) body.use = rules.kind;
    if (body.use !== rules.kind) {
      const hint = rules.kind === "claim" ? "the authorization agent takes preauthorization" : "the claim agent takes claims";
      throw refuse("unprocessable", `Claim.use must be ${rules.kind} for this task (${hint}).`, "use", [{ path: at("use"), message: `must be ${rules.kind}` }]);
    }
  } else if (body.use !== "claim" && body.use !== "preauthorization") {
    throw refuse("unprocessable", "Claim.use must be claim or preauthorization.", "use", [{ path: at("use"), message: "must be claim or preauthorization" }]);
  }
  const kind = body.use as SubmissionKind;
  const expectedProvider = `Organization/${rules.providerOrgId}`;
  if (body.provider === undefined) body.provider = { reference: expectedProvider };
  else if ((body.provider as { reference?: unknown } | null)?.reference !== expectedProvider) {
    throw refuse("unprocessable", `Claim.provider must be ${expectedProvider} (this clinic) or left out.`, "provider", [
      { path: at("provider"), message: `must be ${expectedProvider} (this clinic) or left out` },
    ]);
  }
  const parsed = ClaimSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 20).map((i) => ({ path: i.path.filter((p): p is string | number => typeof p !== "symbol"), message: i.message, code: i.code }));
    const missing = problems.map((p) => p.code === "invalid_type" && valueAt(body, p.path) === undefined);
    const fields = problems.map((p, n) => ({ path: at(...p.path), message: missing[n] ? "required" : p.message }));
    if (missing.every(Boolean)) {
      const issues = fields.map((f) => platformIssue({ code: "ERR-004", diagnostics: `${f.path}: required`, expression: [f.path] }));
      throw refuse("unprocessable", `The ${KIND_LABEL[kind]} lacks required elements.`, "missing_field", fields, issues);
    }
    throw refuse("invalid_request", `The ${KIND_LABEL[kind]} is not a valid FHIR Claim.`, "invalid_structure", fields);
  }
  const claim = parsed.data;
  const patientId = parseReference(claim.patient.reference, "Patient")?.id;
  if (!patientId || !checkNationalId(patientId, { allowSandboxTestIds: rules.allowSandboxTestIds }).valid) {
    throw refuse("unprocessable", "Claim.patient must reference Patient/<national ID or Iqama number> with a valid number.", "patient", [
      { path: at("patient", "reference"), message: "must be Patient/<valid national ID or Iqama>" },
    ]);
  }
  const identifier = callerIdentifier(claim.identifier);
  if (!identifier && rules.requireIdentifier) {
    const path = at("identifier");
    throw refuse("unprocessable", "Claim.identifier: your business identifier (system and value) is required.", "missing_field", [{ path, message: "required: your business identifier (system and value)" }], [
      platformIssue({ code: "ERR-004", diagnostics: `${path}: your business identifier (system and value) is required`, expression: [path] }),
    ]);
  }
  if (identifier && (identifier.value.length > 200 || (identifier.system?.length ?? 0) > 500)) {
    throw refuse("unprocessable", "Claim.identifier is too long (value at most 200, system at most 500 characters).", "identifier_length", [{ path: at("identifier", 0), message: "too long" }]);
  }
  const portalSystem = claimIdentifierSystem(rules.providerOrgId);
  if (identifier?.system === portalSystem) {
    throw refuse("unprocessable", `Claim.identifier: the system ${portalSystem} is reserved for the portal; use your own.`, "identifier_system", [
      { path: at("identifier", 0, "system"), message: "reserved for the portal" },
    ]);
  }
  const setting = careSettingProblem(claim, rules.protocol ?? "rest", rules.codeLists);
  if (setting) throw refuse("unprocessable", setting.message, "care_setting", [{ path: at(...setting.path), message: setting.field }]);
  const newborn = newbornProblem(claim, rules.protocol ?? "rest");
  if (newborn) throw refuse("unprocessable", newborn.message, "newborn", [{ path: at(...newborn.path), message: newborn.field }]);
  // The offline eligibility and authorization extensions as the exchange takes them (docs/decisions/111).
  const offline = nphies.offlineFindings(claim as unknown as Record<string, unknown>, "Claim").find((f) => f.severity === "error");
  if (offline) throw refuse("unprocessable", `${offline.code}: ${offline.message}`, "offline", [{ path: offline.expression.replace(/^Claim/, prefix), message: offline.message }]);
  // Transfer of care as the guide writes it (7.3, Table 37; decision 120): an incomplete referral is a 422 naming the element.
  const transfer = nphies.transferFindings(claim as unknown as Record<string, unknown>, "Claim").find((f) => f.severity === "error");
  if (transfer) throw refuse("unprocessable", `${transfer.code}: ${transfer.message}`, "referral", [{ path: transfer.expression.replace(/^Claim/, prefix), message: transfer.message }]);
  const money = claimTotalMinor({ ...claim });
  if (money && Math.abs(money.totalMinor) > MAX_TOTAL_MINOR) {
    throw refuse("unprocessable", "The claim's total is too large.", "total", [{ path: at("item"), message: "total too large" }]);
  }
  return { claim, kind, identifier };
}

/**
 * A newborn's Claim (extension-newborn, guide 6.5; docs/decisions/110): a birth weight is a
 * valueQuantity in kilograms (UCUM kg, BV-00509) — a weight in grams is refused by name — and, for
 * the national exchange, a newborn's claim or prior authorization of the birth encounter carries
 * one (BV-90024; checked in checkNewbornCoverage, which knows the birth date).
 */
function newbornProblem(claim: ClaimParsed, protocol: PlatformProtocol): { path: PropertyKey[]; field: string; message: string } | undefined {
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
  // 6.5): checked with the patient's record in checkNewbornCoverage (decision 120).
  void protocol;
  return undefined;
}

/** The request's service days (YYYY-MM-DD): each line's date or period start, else the billable period's start. */
function serviceDaysOf(claim: ClaimParsed): string[] {
  const days = (claim.item ?? []).flatMap((i) => {
    const d = typeof i.servicedDate === "string" ? i.servicedDate : (i as { servicedPeriod?: { start?: unknown } }).servicedPeriod?.start;
    return typeof d === "string" && d.length >= 10 ? [d.slice(0, 10)] : [];
  });
  if (days.length > 0) return days;
  const start = (claim as { billablePeriod?: { start?: unknown } }).billablePeriod?.start;
  return typeof start === "string" && start.length >= 10 ? [start.slice(0, 10)] : [];
}

/** A newborn's birth encounter (a service day on the birth date) without its birth weight, for the national exchange (BV-90024). */
function birthWeightMissing(claim: ClaimParsed, birthDate: string | undefined, protocol: PlatformProtocol): boolean {
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

/**
 * Every line's patient share (extension-patientShare), as the screens send it (docs/decisions/091):
 * a share the caller gave is kept; otherwise the contract's and the coverage's terms decide it,
 * exactly as for a form claim. Lines without a price or a date are left as they are.
 */
async function withPatientShares(db: Db, claim: ClaimParsed, insurerId: string | undefined): Promise<ClaimParsed> {
  const items = claim.item ?? [];
  const lacking = items.filter((item) => !item.extension?.some((e) => e.url === nphies.EXTENSIONS.patientShare));
  if (!insurerId || lacking.length === 0) return claim;
  const nationalId = parseReference(claim.patient.reference, "Patient")?.id ?? "";
  const coverageRef = parseReference((claim.insurance.find((i) => i.focal) ?? claim.insurance[0])?.coverage.reference, "Coverage")?.id;
  const [coverage] = coverageRef ? await db.select({ network: coverages.network, coverageClass: coverages.coverageClass }).from(coverages).where(eq(coverages.coverageRef, coverageRef)).limit(1) : [];
  const lines = items.map((item) => {
    const unitPriceMinor = typeof item.unitPrice?.value === "number" ? toMinorUnits(item.unitPrice.value) : undefined;
    const coding = item.productOrService.coding?.find((c) => c.code);
    return unitPriceMinor !== undefined && item.servicedDate && coding?.code
      ? { system: coding.system ?? "", code: coding.code, servicedDate: item.servicedDate, quantity: item.quantity?.value ?? 1, unitPriceMinor }
      : undefined;
  });
  const priced = lines.filter((l): l is NonNullable<typeof l> => l !== undefined);
  if (priced.length === 0) return claim;
  const shares = await claimLineShares(db, { nationalId, insurerId, network: coverage?.network ?? "", coverageClass: coverage?.coverageClass ?? "", items: priced });
  let n = 0;
  const item = items.map((it, i) => {
    if (lines[i] === undefined) return it;
    const share = shares[n++];
    if (!share || it.extension?.some((e) => e.url === nphies.EXTENSIONS.patientShare)) return it;
    return { ...it, extension: [...(it.extension ?? []), { url: nphies.EXTENSIONS.patientShare, valueMoney: money(share.patientMinor, it.unitPrice?.currency ?? PLATFORM_CURRENCY) }] };
  });
  return { ...claim, item };
}

/**
 * A baby linked to its mother in the portal, on the mother's coverage (docs/decisions/110): the
 * Claim says it is a newborn's (extension-newborn) and every line is within the newborn days —
 * else 422 naming the element, before anything is stored.
 */
async function checkNewbornCoverage(db: Db, claim: ClaimParsed, nationalId: string, prefix: string, protocol: PlatformProtocol = "rest"): Promise<void> {
  const focal = claim.insurance.find((i) => i.focal) ?? claim.insurance[0];
  const coverageRef = parseReference(focal?.coverage.reference, "Coverage")?.id;
  const days = (claim.item ?? []).map((i) => i.servicedDate).filter((d): d is string => typeof d === "string" && d.length >= 10).map((d) => d.slice(0, 10));
  const flagged = nphies.isNewbornRequest(claim as unknown as Record<string, unknown>);
  const use = await requestCoverageUse(db, nationalId, coverageRef, days, flagged);
  if (use.ok) {
    // Guide 6.5: the birth weight only on the birth encounter (decision 120); the baby's record says when that was.
    if (flagged && protocol === "messaging" && birthWeightMissing(claim, use.newborn ? use.birthDate : undefined, protocol)) {
      throw refuse("unprocessable", `Claim.supportingInfo must carry the newborn's birth weight ("birth-weight", a valueQuantity in kg): a service day is the baby's birth date, the birth encounter (BV-90024).`, "newborn", [
        { path: issuePath(prefix, ["supportingInfo"]), message: `required on the birth encounter: birth-weight (${nphies.SYSTEMS.claimInformationCategory}, kg)` },
      ]);
    }
    return;
  }
  const n = Math.max(0, claim.insurance.indexOf(focal!));
  if (use.reason === "newborn_flag_missing") {
    throw refuse("unprocessable", `${coverageRef} is the mother's coverage of this newborn: a newborn's claim carries extension-newborn (${nphies.EXTENSIONS.newborn}, valueBoolean true).`, "newborn_flag", [
      { path: issuePath(prefix, ["extension"]), message: `required: extension-newborn (the coverage is the mother's)` },
    ]);
  }
  throw refuse("unprocessable", use.reason === "newborn_too_old" ? `The baby is ${use.age} days old on a service date: the mother's coverage covers a newborn for ${NEWBORN_DAYS} days; bill the baby's own coverage.` : "A service date is before the baby's birth.", use.reason, [
    { path: issuePath(prefix, ["insurance", n, "coverage"]), message: use.reason === "newborn_too_old" ? `the mother's coverage covers the newborn for ${NEWBORN_DAYS} days only` : "a service date is before the birth" },
  ]);
}

async function insurerOf(db: Db, claim: ClaimParsed): Promise<string | undefined> {
  const fromClaim = parseReference(claim.insurer?.reference, "Organization")?.id;
  if (fromClaim) return fromClaim;
  const focal = claim.insurance.find((i) => i.focal) ?? claim.insurance[0];
  const coverageRef = parseReference(focal?.coverage.reference, "Coverage")?.id;
  if (!coverageRef) return undefined;
  const [row] = await db.select({ insurerId: coverages.insurerId }).from(coverages).where(eq(coverages.coverageRef, coverageRef)).limit(1);
  return row?.insurerId;
}

export interface ApiClaimSubmission {
  db: Db;
  now: Date;
  /** `submissions.channel`: `exchange-api` or `gateway`. */
  channel: string;
  /** `submissions.created_by`: the calling client (`org:<id>`, `gateway:<token id>`), never a secret. */
  createdBy: string;
  /** A change of an authorization (decision 114): the version it changes (`replaces_id`). */
  replacesId?: string;
}

/**
 * Validates and submits a Claim through the pipeline (createDraft + queue). Idempotent per caller
 * (channel + createdBy) and the caller's identifier: under an advisory lock on that pair, a
 * resubmission finds the first submission and returns it with `replay: true` instead of creating
 * a second one.
 */
export async function submitApiClaim(
  deps: ApiClaimSubmission,
  body: unknown,
  rules: ApiClaimRules,
): Promise<{ submission: Submission; replay: boolean; status: number }> {
  // In messaging the visit details are checked against the catalogue's lists, as the screens' are.
  const codeLists = rules.protocol === "messaging" ? await mdsCodeLists(deps.db) : undefined;
  const { claim, kind, identifier } = validateApiClaim(body, { ...rules, codeLists });
  const patientId = parseReference(claim.patient.reference, "Patient")!.id;
  await checkNewbornCoverage(deps.db, claim, patientId, rules.prefix, rules.protocol ?? "rest");
  const insurerId = await insurerOf(deps.db, claim);
  const shared = await withPatientShares(deps.db, claim, insurerId);
  const { submission, replay } = await deps.db.transaction(async (tx) => {
    try {
      return await submitOnce(tx);
    } catch (error) {
      if (error instanceof ScrubBlockedError) throw scrubRefusal(error, rules.prefix);
      throw error;
    }
  });
  async function submitOnce(tx: Db) {
    if (identifier) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${deps.channel}|${deps.createdBy}|${identifier.system ?? ""}|${identifier.value}`}))`);
      const [existing] = await tx
        .select()
        .from(submissions)
        .where(
          and(
            eq(submissions.channel, deps.channel),
            eq(submissions.createdBy, deps.createdBy),
            eq(submissions.kind, kind),
            sql`${submissions.claim} -> 'identifier' @> ${JSON.stringify([identifier])}::jsonb`,
          ),
        )
        .limit(1);
      if (existing) return { submission: existing, replay: true };
    }
    const created = await submit(
      { db: tx, clock: () => deps.now },
      { kind, patientNationalId: patientId, insurerId, claim: { ...shared }, channel: deps.channel, createdBy: deps.createdBy, source: "api", ...(deps.replacesId ? { replacesId: deps.replacesId } : {}) },
    );
    return { submission: created, replay: false };
  }
  return { submission, replay, status: replay ? API_CLAIM_REPLAY_STATUS : API_CLAIM_ACCEPTED_STATUS };
}

/**
 * The scrubber's errors as a 422 (docs/decisions/090): one field per finding — the element, the
 * rejection code and family, the words and the fix — and the same as OperationOutcome issues for
 * the FHIR endpoints. Nothing was stored. Warnings never refuse an API call (nobody to ask): they
 * are kept on the submission's timeline.
 */
function scrubRefusal(error: ScrubBlockedError, prefix: string): AppError {
  const errors = error.result.errors;
  const fields = errors.map((f) => ({ path: issuePath(prefix, f.element.replace(/^Claim\.?/, "").split(/[.[\]]+/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p))), message: `${f.code} (${f.family}): ${f.message.en} Fix: ${f.fix.en}` }));
  const issues = errors.map((f) => ({ severity: "error" as const, code: "business-rule" as const, details: { coding: [{ code: f.code }], text: f.message.en }, diagnostics: `${f.message.en} Fix: ${f.fix.en}`, expression: [f.element] }));
  return new AppError("unprocessable", `The claim scrubber found ${errors.length} problem(s) the payer or the exchange would reject; nothing was queued.`, {
    reason: "scrubber",
    fields,
    issues,
    extra: { findings: error.result.findings.map((f) => ({ rule: f.rule, severity: f.severity, family: f.family, code: f.code, element: f.element, message: f.message, fix: f.fix, ...(f.sequence !== undefined ? { sequence: f.sequence } : {}) })) },
  });
}

/** A submission's state as a ClaimResponse.outcome. */
export function claimOutcomeOf(status: Submission["status"]): ClaimResponse["outcome"] {
  switch (status) {
    case "complete":
    case "denied":
      return "complete";
    case "partial":
      return "partial";
    case "rejected":
    case "failed":
    case "cancelled":
      return "error";
    default:
      return "queued";
  }
}

/**
 * The acknowledgement's shape (OpenAPI of both APIs is generated from it): a ClaimResponse whose
 * insurer may be a display only (not known until the platform answers) and whose request names
 * the caller's own identifier.
 */
export const ApiClaimAcknowledgementSchema = ClaimResponseSchema.extend({
  insurer: z.object({ reference: z.string().optional(), display: z.string().optional() }),
  request: z.object({ identifier: IdentifierSchema.optional() }).optional(),
  extension: z.array(ExtensionSchema).optional(),
});

/** The acknowledgement of an API Claim: a ClaimResponse (outcome `queued` while queued) naming the submission. */
export function apiClaimAcknowledgement(submission: Submission, now: Date): ClaimResponse {
  const claim = submission.claim as { type?: ClaimResponse["type"]; patient?: { reference?: string }; provider?: { reference?: string }; identifier?: Identifier[] };
  const own = callerIdentifier(claim.identifier?.filter((i) => i.system !== submission.identifierSystem));
  return {
    resourceType: "ClaimResponse",
    identifier: [
      { system: PORTAL_SUBMISSION_ID_SYSTEM, value: submission.id },
      ...(submission.identifierSystem && submission.identifierValue ? [{ system: submission.identifierSystem, value: submission.identifierValue }] : []),
    ],
    status: "active",
    type: claim.type ?? { coding: [{ code: "institutional" }] },
    use: claimUseOf(submission.kind),
    patient: { reference: claim.patient?.reference ?? `Patient/${submission.patientNationalId}` },
    created: now.toISOString(),
    insurer: submission.insurerId ? { reference: `Organization/${submission.insurerId}` } : { display: "Not known until the platform answers" },
    ...(claim.provider?.reference ? { requestor: { reference: claim.provider.reference } } : {}),
    ...(own ? { request: { identifier: own } } : {}),
    outcome: claimOutcomeOf(submission.status),
    disposition: `Submission ${submission.status}`,
    extension: [{ url: PORTAL_SUBMISSION_STATUS_EXTENSION, valueCode: submission.status }],
  };
}

import type { z } from "zod";
import {
  BENEFIT_CATEGORIES,
  CLAIM_TYPES,
  CODE_SYSTEMS,
  checkNationalId,
  ClaimSchema,
  CoverageEligibilityRequestSchema,
  isBenefitCategoryCode,
  parseReference,
  PLATFORM_CURRENCY,
  PROCESS_PRIORITIES,
  toMinorUnits,
  type BenefitCategoryCode,
  type ClaimParsed,
  type CoverageEligibilityRequestInput,
  type PlatformIssueInput,
} from "../lib/fhir";
import { ApiError } from "./http";
import { nphies } from "../lib/fhir";
import { catalogueKey, isNphiesProductSystem } from "./catalogue";

const PROCEDURE_SYSTEMS: ReadonlySet<string> = new Set([CODE_SYSTEMS.cpt, nphies.SYSTEMS.procedures, nphies.SYSTEMS.oralHealthOp, nphies.SYSTEMS.oralHealthIp]);
import { coveragePeriod, type CoverageDef, type PriceListEntry, type ReferenceData } from "./reference-data";

/**
 * Checks a request against the platform's rules, in this order (the first failing step answers):
 *   1. required fields present            → 422 ERR-004 (one issue per missing field)
 *   2. FHIR structure / types             → 400 `structure`
 *   3. patient identifier                 → 400 ERR-001
 *   4. provider is the caller's org       → 403 `forbidden`
 *   5. codes known (CPT, ICD-10-AM, …)    → 422 ERR-003
 *   6. coverage exists for the patient    → 404 ERR-002
 * Duplicate identifiers (ERR-005) are checked by the claim route after this.
 */

type Json = Record<string, unknown>;

function isMissing(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === "string" && value.trim() === "") ||
    (Array.isArray(value) && value.length === 0)
  );
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function firstCode(value: unknown): { system: string | undefined; code: string | undefined } {
  const coding = asArray(asObject(value)?.coding)[0];
  const c = asObject(coding);
  return {
    system: typeof c?.system === "string" ? c.system : undefined,
    code: typeof c?.code === "string" ? c.code : undefined,
  };
}

class MissingFields {
  readonly issues: PlatformIssueInput[] = [];

  constructor(private readonly resourceType: string) {}

  check(value: unknown, path: string): boolean {
    if (isMissing(value)) {
      this.issues.push({
        code: "ERR-004",
        diagnostics: `Missing required field: ${this.resourceType}.${path}`,
        expression: [`${this.resourceType}.${path}`],
      });
      return false;
    }
    return true;
  }

  /** A Reference: present, and when it is an object, with a `reference` (other shapes fail the structure step). */
  checkRef(value: unknown, path: string): void {
    if (this.check(value, path) && asObject(value)) this.check(asObject(value)?.reference, `${path}.reference`);
  }

  /** An object member that, when its parent is an object, must be present. */
  checkIn(parent: unknown, member: string, path: string): boolean {
    const o = asObject(parent);
    return o ? this.check(o[member], path) : false;
  }

  throwIfAny(): void {
    if (this.issues.length > 0) throw ApiError.platform(this.issues);
  }
}

function parseStructure<T extends z.ZodType>(schema: T, body: Json, resourceType: string): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = (issue?.path ?? []).map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  throw ApiError.plain(400, "structure", `Invalid ${resourceType}${where}: ${issue?.message ?? "invalid value"}`);
}

function checkPatient(reference: string, resourceType: string, ref0?: ReferenceData): string {
  const ref = parseReference(reference, "Patient");
  // A seeded patient known by a passport (no national ID) is found by its seed id.
  if (ref && ref0?.patients.has(ref.id) && !/^\d+$/.test(ref.id)) return ref.id;
  if (!ref) {
    throw ApiError.platform({
      code: "ERR-001",
      diagnostics: `${resourceType}.patient must be a reference Patient/<national ID>`,
      expression: [`${resourceType}.patient`],
    });
  }
  // The platform environment is the sandbox: the published test identities are accepted.
  const check = checkNationalId(ref.id, { allowSandboxTestIds: true });
  if (!check.valid) {
    throw ApiError.platform({
      code: "ERR-001",
      diagnostics: `${resourceType}.patient: invalid national ID / Iqama number (${check.problem}): ${check.message.en}`,
      expression: [`${resourceType}.patient`],
    });
  }
  return check.value;
}

function checkProvider(reference: string, resourceType: string, providerOrgId: string): void {
  const ref = parseReference(reference, "Organization");
  if (!ref || ref.id !== providerOrgId) {
    throw ApiError.plain(
      403,
      "forbidden",
      `${resourceType}.provider must be Organization/${providerOrgId}, the organization this client is registered for`,
    );
  }
}

function coveragesOf(ref: ReferenceData, patientId: string): CoverageDef[] {
  return ref.coveragesByPatient.get(patientId) ?? [];
}

/**
 * A newborn is checked and billed under a parent's coverage for its first weeks (extension-newborn
 * on the request): the coverage the request names is then used whoever its beneficiary is. The
 * newborn window and the birth weight are rules of the shared checker (lib/fhir/nphies, applied
 * before this in strict conformance), not repeated here.
 */
function newbornCoverage(body: Json, ref: ReferenceData, patientId: string, named: string | undefined): CoverageDef[] {
  if (!named || !nphies.isNewbornRequest(body)) return [];
  const coverage = ref.coverages.get(named);
  return coverage && coverage.patientId !== patientId ? [coverage] : [];
}

// ---- eligibility ----------------------------------------------------------------------------

export interface ValidatedEligibility {
  request: CoverageEligibilityRequestInput;
  patientId: string;
  coverage: CoverageDef;
  /** The requested period (servicedPeriod, or servicedDate as a one-day period; today when neither). */
  period: { start: string; end: string };
  /** The request named a servicedPeriod (answered with one). */
  askedPeriod: boolean;
  /** Requested categories, or undefined when none were requested (→ all). */
  categories: BenefitCategoryCode[] | undefined;
}

/** The requested period of an eligibility request: servicedPeriod, else servicedDate, else today. */
function requestedPeriod(body: Json, now: number): { start: string; end: string; asked: boolean } {
  const p = asObject(body.servicedPeriod);
  const day = (v: unknown) => (typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined);
  const start = day(p?.start);
  if (start) return { start, end: day(p?.end) ?? start, asked: true };
  const date = day(body.servicedDate) ?? new Date(now).toISOString().slice(0, 10);
  return { start: date, end: date, asked: false };
}

export function validateEligibilityRequest(body: Json, ref: ReferenceData, providerOrgId: string, now: number = Date.now()): ValidatedEligibility {
  const rt = "CoverageEligibilityRequest";
  if (body.resourceType !== rt) {
    throw ApiError.plain(400, "invalid", `resourceType must be ${rt}`);
  }
  const missing = new MissingFields(rt);
  missing.check(body.status, "status");
  missing.check(body.purpose, "purpose");
  missing.checkRef(body.patient, "patient");
  missing.check(body.created, "created");
  missing.checkRef(body.provider, "provider");
  missing.checkRef(body.insurer, "insurer");
  asArray(body.item).forEach((item, i) => missing.checkIn(item, "category", `item[${i}].category`));
  missing.throwIfAny();

  // Purposes outside the value set are invalid codes, not structure errors.
  for (const [i, p] of asArray(body.purpose).entries()) {
    if (typeof p === "string" && !["auth-requirements", "benefits", "discovery", "validation"].includes(p)) {
      throw ApiError.platform({ code: "ERR-003", diagnostics: `${rt}.purpose[${i}]: unknown purpose '${p}'`, expression: [`${rt}.purpose[${i}]`] });
    }
  }
  const request = parseStructure(CoverageEligibilityRequestSchema, body, rt);
  const patientId = checkPatient(request.patient.reference, rt, ref);
  checkProvider(request.provider?.reference ?? "", rt, providerOrgId);

  let categories: BenefitCategoryCode[] | undefined;
  if (request.item && request.item.length > 0) {
    categories = [];
    for (const [i, item] of request.item.entries()) {
      const { system, code } = firstCode(item.category);
      if (system !== CODE_SYSTEMS.benefitCategory || !code || !isBenefitCategoryCode(code)) {
        throw ApiError.platform({
          code: "ERR-003",
          diagnostics: `${rt}.item[${i}].category: '${code ?? ""}' is not a code of ${CODE_SYSTEMS.benefitCategory}`,
          expression: [`${rt}.item[${i}].category`],
        });
      }
      if (!categories.includes(code)) categories.push(code);
    }
  }

  const insurer = parseReference(request.insurer.reference, "Organization");
  const named = (request.insurance ?? []).map((i) => parseReference(i.coverage.reference, "Coverage")?.id).find((id) => id !== undefined);
  const all = [...coveragesOf(ref, patientId), ...newbornCoverage(body, ref, patientId, named)];
  if (all.length === 0) {
    throw ApiError.platform({ code: "ERR-002", diagnostics: `${rt}.patient: no coverage found for this patient`, expression: [`${rt}.patient`] });
  }
  // The coverage the request names, else the insurer's coverage whose period meets the requested
  // one, else the insurer's latest (answered not in force): past, current and future coverages.
  const requested = requestedPeriod(body, now);
  const ofInsurer = all.filter((c) => c.payerId === insurer?.id && (named === undefined || c.id === named || !all.some((x) => x.id === named)));
  const meets = (c: CoverageDef) => {
    const p = coveragePeriod(c, new Date(now));
    return requested.start <= p.end && requested.end >= p.start;
  };
  const coverage = ofInsurer.find(meets) ?? [...ofInsurer].sort((a, b) => coveragePeriod(b, new Date(now)).start.localeCompare(coveragePeriod(a, new Date(now)).start))[0];
  if (!coverage) {
    throw ApiError.platform({
      code: "ERR-002",
      diagnostics: `${rt}.insurer: the patient has no coverage with ${request.insurer.reference}`,
      expression: [`${rt}.insurer`],
    });
  }
  return { request, patientId, coverage, categories, period: { start: requested.start, end: requested.end }, askedPeriod: requested.asked };
}

// ---- claims -------------------------------------------------------------------------------------

export interface ValidatedItem {
  sequence: number;
  /** Code system of `code` (CPT or one of the exchange's product systems). */
  system: string;
  code: string;
  /** Oral items: the tooth (item.bodySite, FDI). */
  tooth?: string;
  /** Medication items: days of supply (supportingInfo `days-supply` the item points to). */
  daysSupply?: number;
  entry: PriceListEntry;
  quantity: number;
  unitPrice: number;
  submitted: number;
  servicedDate: string;
}

export interface ValidatedClaim {
  claim: ClaimParsed;
  /**
   * The Claim as received (servicedDate filled from servicedPeriod): what the sandbox stores, so a
   * later step re-validates it with everything it carried — tooth, days supply, periods.
   */
  received: Json;
  use: "claim" | "preauthorization";
  patientId: string;
  coverage: CoverageDef;
  identifier: { system: string | undefined; value: string };
  items: ValidatedItem[];
  preAuthRefs: string[];
  /**
   * The references of authorizations the payer gave offline (extension-authorization-offline-date
   * with its reference in preAuthRef, guide 7.3 step 4): the payer honours them as it gave them.
   */
  offlineAuthorized: boolean;
  totalSubmitted: number;
}

export function validateClaim(input: Json, ref: ReferenceData, providerOrgId: string): ValidatedClaim {
  const rt = "Claim";
  if (input.resourceType !== rt) throw ApiError.plain(400, "invalid", `resourceType must be ${rt}`);
  // item.servicedPeriod is as valid as servicedDate (R4): the period's start dates the item.
  const body: Json = {
    ...input,
    ...(Array.isArray(input.item)
      ? {
          item: input.item.map((it) => {
            const o = asObject(it);
            const start = asObject(o?.servicedPeriod)?.start;
            return o && o.servicedDate === undefined && typeof start === "string" ? { ...o, servicedDate: start.slice(0, 10) } : it;
          }),
        }
      : {}),
  };

  const missing = new MissingFields(rt);
  if (missing.check(body.identifier, "identifier")) missing.checkIn(asArray(body.identifier)[0], "value", "identifier[0].value");
  missing.check(body.status, "status");
  missing.check(body.type, "type");
  missing.check(body.use, "use");
  missing.checkRef(body.patient, "patient");
  missing.check(body.created, "created");
  missing.checkRef(body.provider, "provider");
  missing.check(body.priority, "priority");
  if (missing.check(body.insurance, "insurance")) {
    asArray(body.insurance).forEach((ins, i) => {
      missing.checkIn(ins, "sequence", `insurance[${i}].sequence`);
      missing.checkIn(ins, "focal", `insurance[${i}].focal`);
      if (asObject(ins)) missing.checkRef(asObject(ins)?.coverage, `insurance[${i}].coverage`);
    });
  }
  if (missing.check(body.diagnosis, "diagnosis")) {
    asArray(body.diagnosis).forEach((d, i) => {
      missing.checkIn(d, "sequence", `diagnosis[${i}].sequence`);
      missing.checkIn(d, "diagnosisCodeableConcept", `diagnosis[${i}].diagnosisCodeableConcept`);
    });
  }
  asArray(body.procedure).forEach((p, i) => {
    missing.checkIn(p, "sequence", `procedure[${i}].sequence`);
    missing.checkIn(p, "procedureCodeableConcept", `procedure[${i}].procedureCodeableConcept`);
  });
  if (missing.check(body.item, "item")) {
    asArray(body.item).forEach((it, i) => {
      missing.checkIn(it, "sequence", `item[${i}].sequence`);
      missing.checkIn(it, "productOrService", `item[${i}].productOrService`);
      if (body.use === "claim") missing.checkIn(it, "servicedDate", `item[${i}].servicedDate`);
      if (missing.checkIn(it, "unitPrice", `item[${i}].unitPrice`)) {
        const price = asObject(it)?.unitPrice;
        missing.checkIn(price, "value", `item[${i}].unitPrice.value`);
        missing.checkIn(price, "currency", `item[${i}].unitPrice.currency`);
      }
    });
  }
  asArray(body.supportingInfo).forEach((s, i) => {
    missing.checkIn(s, "sequence", `supportingInfo[${i}].sequence`);
    missing.checkIn(s, "category", `supportingInfo[${i}].category`);
  });
  missing.throwIfAny();

  if (typeof body.use === "string" && body.use !== "claim" && body.use !== "preauthorization") {
    throw ApiError.platform({ code: "ERR-003", diagnostics: `Claim.use: '${body.use}' is not supported (use 'claim' or 'preauthorization')`, expression: ["Claim.use"] });
  }
  const claim = parseStructure(ClaimSchema, body, rt);
  if (claim.use === "predetermination") {
    throw ApiError.platform({ code: "ERR-003", diagnostics: "Claim.use: 'predetermination' is not supported", expression: ["Claim.use"] });
  }
  if (claim.status !== "active") {
    throw ApiError.plain(422, "business-rule", `Claim.status must be 'active' (was '${claim.status}')`);
  }
  const patientId = checkPatient(claim.patient.reference, rt, ref);
  checkProvider(claim.provider.reference, rt, providerOrgId);

  const codeError = (path: string, message: string) =>
    ApiError.platform({ code: "ERR-003", diagnostics: `Claim.${path}: ${message}`, expression: [`Claim.${path}`] });

  const type = firstCode(claim.type);
  if (type.system !== CODE_SYSTEMS.claimType || !type.code || !(type.code in CLAIM_TYPES)) {
    throw codeError("type", `'${type.code ?? ""}' is not a code of ${CODE_SYSTEMS.claimType}`);
  }
  const priority = firstCode(claim.priority);
  if (priority.system !== CODE_SYSTEMS.processPriority || !priority.code || !(priority.code in PROCESS_PRIORITIES)) {
    throw codeError("priority", `'${priority.code ?? ""}' is not a code of ${CODE_SYSTEMS.processPriority}`);
  }
  for (const [i, d] of (claim.diagnosis ?? []).entries()) {
    const c = firstCode(d.diagnosisCodeableConcept);
    if (c.system !== CODE_SYSTEMS.icd10am) throw codeError(`diagnosis[${i}]`, `coding system must be ${CODE_SYSTEMS.icd10am} (ICD-10-AM)`);
    if (!c.code || !ref.diagnoses.has(c.code)) throw codeError(`diagnosis[${i}]`, `'${c.code ?? ""}' is not a known ICD-10-AM code`);
  }
  for (const [i, p] of (claim.procedure ?? []).entries()) {
    const c = firstCode(p.procedureCodeableConcept);
    if (!c.system || !PROCEDURE_SYSTEMS.has(c.system)) throw codeError(`procedure[${i}]`, `coding system must be one of ${[...PROCEDURE_SYSTEMS].join(", ")}`);
    if (!c.code || !ref.catalogue.has(catalogueKey(c.system, c.code))) throw codeError(`procedure[${i}]`, `'${c.code ?? ""}' is not a known code of ${c.system}`);
  }
  for (const [i, s] of (claim.supportingInfo ?? []).entries()) {
    const c = firstCode(s.category);
    const hl7 = c.system === CODE_SYSTEMS.supportingInfoCategory && (c.code === "attachment" || c.code === "info");
    const exchange = c.system === nphies.SYSTEMS.claimInformationCategory && !!c.code;
    if (!hl7 && !exchange) {
      throw codeError(`supportingInfo[${i}].category`, `use 'attachment' or 'info' of ${CODE_SYSTEMS.supportingInfoCategory}, or a code of ${nphies.SYSTEMS.claimInformationCategory}`);
    }
  }

  const createdDate = claim.created.slice(0, 10);
  const items: ValidatedItem[] = [];
  const sequences = new Set<number>();
  for (const [i, item] of (claim.item ?? []).entries()) {
    if (sequences.has(item.sequence)) throw ApiError.plain(400, "invalid", `Claim.item[${i}].sequence ${item.sequence} is used twice`);
    sequences.add(item.sequence);
    const c = firstCode(item.productOrService);
    if (c.system !== CODE_SYSTEMS.cpt && !isNphiesProductSystem(c.system)) {
      throw codeError(`item[${i}].productOrService`, `coding system must be CPT or one of the exchange's product systems (services, procedures, oral health, medicines, devices, transport, ministry categories, vision products, imaging, laboratory)`);
    }
    const entry = c.code ? ref.catalogue.get(catalogueKey(c.system, c.code)) : undefined;
    if (!c.code || !entry) throw codeError(`item[${i}].productOrService`, `'${c.code ?? ""}' is not a priced code of ${c.system ?? ""}`);
    const rawItem = asObject(asArray(body.item)[i]);
    const tooth = firstCode(asArray(rawItem?.bodySite)[0] ?? rawItem?.bodySite).code;
    if (entry.tooth && !tooth) {
      throw ApiError.platform({ code: "ERR-004", diagnostics: `Missing required field: Claim.item[${i}].bodySite (the tooth, FDI)`, expression: [`Claim.item[${i}].bodySite`] });
    }
    const daysSupply = daysSupplyOf(body, rawItem);
    if (item.unitPrice?.currency !== PLATFORM_CURRENCY) {
      throw codeError(`item[${i}].unitPrice.currency`, `currency must be ${PLATFORM_CURRENCY}`);
    }
    const unitPrice = toMinorUnits(item.unitPrice.value ?? Number.NaN);
    if (unitPrice === undefined) {
      throw ApiError.plain(400, "value", `Claim.item[${i}].unitPrice.value must be a non-negative amount with at most two decimals`);
    }
    const quantity = item.quantity?.value ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 1000) {
      throw ApiError.plain(400, "value", `Claim.item[${i}].quantity.value must be a whole number from 1 to 1000`);
    }
    items.push({
      sequence: item.sequence,
      system: c.system!,
      code: c.code,
      ...(tooth ? { tooth } : {}),
      ...(daysSupply !== undefined ? { daysSupply } : {}),
      entry,
      quantity,
      unitPrice,
      submitted: unitPrice * quantity,
      servicedDate: item.servicedDate ?? createdDate,
    });
  }

  // Coverage: the focal insurance's coverage must be one of the patient's coverages.
  const focal = claim.insurance.find((i) => i.focal) ?? claim.insurance[0];
  const coverageRef = parseReference(focal?.coverage.reference, "Coverage");
  const all = [...coveragesOf(ref, patientId), ...newbornCoverage(body, ref, patientId, coverageRef?.id)];
  if (all.length === 0) {
    throw ApiError.platform({ code: "ERR-002", diagnostics: "Claim.patient: no coverage found for this patient", expression: ["Claim.patient"] });
  }
  const coverage = all.find((c) => c.id === coverageRef?.id);
  if (!coverage) {
    throw ApiError.platform({
      code: "ERR-002",
      diagnostics: "Claim.insurance.coverage: the coverage was not found for this patient",
      expression: ["Claim.insurance.coverage"],
    });
  }
  if (claim.insurer) {
    const insurer = parseReference(claim.insurer.reference, "Organization");
    if (insurer?.id !== coverage.payerId) {
      throw ApiError.platform({
        code: "ERR-002",
        diagnostics: `Claim.insurer: the coverage is not with ${claim.insurer.reference}`,
        expression: ["Claim.insurer"],
      });
    }
  }

  const identifier = claim.identifier?.[0];
  if ((identifier?.value ?? "").length > 128 || (identifier?.system ?? "").length > 256) {
    throw ApiError.plain(400, "too-long", "Claim.identifier[0]: value must be at most 128 and system at most 256 characters");
  }
  const preAuthRefs = claim.insurance.flatMap((i) => i.preAuthRef ?? []);
  return {
    claim,
    received: body,
    use: claim.use,
    patientId,
    coverage,
    identifier: { system: identifier?.system, value: identifier?.value ?? "" },
    items,
    preAuthRefs,
    offlineAuthorized: preAuthRefs.length > 0 && ((body.extension as Json[] | undefined) ?? []).some((e) => e.url === nphies.EXTENSIONS.authorizationOfflineDate && typeof e.valueDateTime === "string"),
    totalSubmitted: items.reduce((sum, i) => sum + i.submitted, 0),
  };
}

/** Days of supply for an item: the `days-supply` supportingInfo it points to, else the claim's first one. */
function daysSupplyOf(claim: Json, item: Json | undefined): number | undefined {
  const infos = asArray(claim.supportingInfo).map(asObject).filter((s): s is Json => s !== undefined && firstCode(s.category).code === "days-supply");
  const pointed = asArray(item?.informationSequence);
  const info = infos.find((s) => pointed.includes(s.sequence)) ?? infos[0];
  const value = asObject(info?.valueQuantity)?.value;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

export function benefitCategoryDisplay(code: BenefitCategoryCode): string {
  return BENEFIT_CATEGORIES[code].en;
}

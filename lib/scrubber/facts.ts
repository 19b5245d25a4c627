import { and, desc, eq, ne } from "drizzle-orm";
import { authorizationUsage } from "@/lib/authorization-usage";
import { contractPricesFor } from "@/lib/contracts";
import type { Db, Tx } from "@/lib/db";
import { eligibilityChecks, patients } from "@/lib/db";
import { benefitCategoryOf, isExcludedService, MESSAGE_LIMIT_BYTES, nphies, priceListSystemKey, toMinorUnits, type BenefitsView } from "@/lib/fhir";
import { coverageTermsWith } from "@/lib/patients";
import { yieldToEventLoop } from "@/lib/time";
import { providedFilingWindowRead, providedScrubReads } from "./reads";
import type { AuthorizationFact, ScrubFacts, ScrubItem } from "./types";

/**
 * The facts the rules look at, gathered from the stored claim and the database in the caller's
 * transaction (docs/decisions/090): the patient, the last eligibility answer, the contract price
 * of each line on its date, the referenced authorizations and what other claims used of them,
 * services already claimed for the patient on the same day, the payer's filing window and the
 * message's size. What it knows of other submissions it asks lib/submissions (./reads.ts).
 */

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v.filter((x) => typeof x === "object" && x !== null) as Json[]) : []);
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const codingOf = (concept: unknown) => arr(obj(concept).coding)[0] ?? {};
const str = (v: unknown) => (typeof v === "string" ? v : "");

export interface ClaimUnderCheck {
  id?: string;
  kind: "claim" | "preauthorization";
  /** National ID / Iqama (what the exchange calls the patient by). */
  patientNationalId: string;
  insurerId: string | null;
  claim: Json;
  /**
   * The claim this one appeals or replaces (docs/decisions/081): their lines are the same services
   * on purpose, so neither they nor the other appeals of the same claim count as duplicates.
   */
  appealOfId?: string | null;
  replacesId?: string | null;
  /**
   * A fresh eligibility check was due before this submit and the platform could not be reached
   * (lib/eligibility/freshness.ts): the reason, shown as a notice.
   */
  eligibilityUnconfirmed?: string;
}

/** The benefit categories an eligibility answer says the plan does not cover (not a single service's line, not out of network only). */
export function excludedCategoriesOf(view: BenefitsView | null | undefined): string[] {
  const categories = (view?.insurances?.[0]?.categories ?? []).filter((c) => !c.productOrService && c.network !== "out");
  const covered = new Set(categories.filter((c) => !c.excluded).map((c) => c.code));
  return [...new Set(categories.filter((c) => c.excluded && !covered.has(c.code)).map((c) => c.code))];
}

/** The Coverage id the claim names (`Coverage/<id>` of its focal insurance), if any. */
function coverageRefOf(claim: Json): string | undefined {
  const insurances = arr(claim.insurance);
  const focal = insurances.find((i) => i.focal === true) ?? insurances[0];
  const ref = str(obj(focal?.coverage).reference);
  return ref.startsWith("Coverage/") ? ref.slice("Coverage/".length) : undefined;
}

/** The lines, diagnoses, supporting information and references of a stored FHIR Claim. */
export function readClaim(claim: Json) {
  const items = arr(claim.item).map((item, n) => {
    const coding = codingOf(item.productOrService);
    return {
      sequence: typeof item.sequence === "number" ? item.sequence : n + 1,
      code: str(coding.code),
      system: priceListSystemKey(str(coding.system)) ?? "",
      servicedDate: str(item.servicedDate).slice(0, 10) || str(obj(item.servicedPeriod).start).slice(0, 10),
      quantity: typeof obj(item.quantity).value === "number" ? (obj(item.quantity).value as number) : 1,
      unitPriceMinor: toMinorUnits(typeof obj(item.unitPrice).value === "number" ? (obj(item.unitPrice).value as number) : 0) ?? 0,
    };
  });
  const type = arr(obj(claim.type).coding).find((c) => nphies.isClaimType(c.code));
  const subType = arr(obj(claim.subType).coding)[0];
  return {
    items,
    diagnoses: arr(claim.diagnosis).map((d) => str(codingOf(d.diagnosisCodeableConcept).code)).filter(Boolean),
    supportingInfo: arr(claim.supportingInfo).map((s) => str(codingOf(s.category).code)).filter(Boolean),
    claimType: type ? str(type.code) : undefined,
    subType: subType ? str(subType.code) || undefined : undefined,
    preAuthRefs: arr(claim.insurance).flatMap((i) => (Array.isArray(i.preAuthRef) ? i.preAuthRef.filter((r): r is string => typeof r === "string" && r !== "") : [])),
    offline: offlineOf(claim),
  };
}

/** The offline extensions a Claim carries (docs/decisions/111): present parts, values as strings ("" when missing). */
function offlineOf(claim: Json): ScrubFacts["offline"] {
  const ext = (url: string) => arr(claim.extension).find((e) => e.url === url);
  const ref = ext(nphies.EXTENSIONS.eligibilityOfflineReference);
  const date = ext(nphies.EXTENSIONS.eligibilityOfflineDate);
  const auth = ext(nphies.EXTENSIONS.authorizationOfflineDate);
  return {
    ...(ref || date ? { eligibility: { reference: str(ref?.valueString).trim(), date: str(date?.valueDateTime).slice(0, 10) } } : {}),
    ...(auth ? { authorization: { date: str(auth.valueDateTime).slice(0, 10) } } : {}),
  };
}

export async function gatherFacts(db: Db | Tx, subject: ClaimUnderCheck, at: Date): Promise<ScrubFacts> {
  const read = readClaim(subject.claim);
  const reads = providedScrubReads();
  const insurerId = subject.insurerId ?? undefined;
  const [patient] = await db.select({ id: patients.id, birthDate: patients.birthDate, gender: patients.gender }).from(patients).where(eq(patients.nationalId, subject.patientNationalId)).limit(1);

  await yieldToEventLoop();
  let eligibility: ScrubFacts["eligibility"];
  if (patient && insurerId) {
    const [check] = await db
      .select({ inforce: eligibilityChecks.inforce, checkedAt: eligibilityChecks.checkedAt, servicedDate: eligibilityChecks.servicedDate, view: eligibilityChecks.responseView })
      .from(eligibilityChecks)
      .where(and(eq(eligibilityChecks.patientId, patient.id), eq(eligibilityChecks.insurerId, insurerId), ne(eligibilityChecks.outcome, "rejected")))
      .orderBy(desc(eligibilityChecks.checkedAt))
      .limit(1);
    if (check) {
      const excludedCategories = excludedCategoriesOf(check.view as BenefitsView | null);
      eligibility = { inforce: check.inforce, checkedAt: check.checkedAt.toISOString(), servicedDate: check.servicedDate, ...(excludedCategories.length > 0 ? { excludedCategories } : {}) };
    }
  }

  await yieldToEventLoop();
  // The coverage's network and class choose the contract's class and network rows (docs/decisions/089).
  let plan: { network: string; coverageClass: string } = { network: "", coverageClass: "" };
  if (patient && insurerId) {
    const ref = coverageRefOf(subject.claim);
    const rows = await coverageTermsWith(db, patient.id, insurerId);
    const row = rows.find((r) => r.coverageRef === ref) ?? (rows.length === 1 ? rows[0] : undefined);
    if (row) plan = { network: row.network, coverageClass: row.coverageClass };
  }

  await yieldToEventLoop();
  // Services of this patient already claimed, by code and day: only this claim's code-and-day pairs
  // found on the patient's other counted claims — never those claims themselves (docs/decisions/093).
  const wanted = subject.kind === "claim" ? [...new Set(read.items.map((i) => `${i.code}|${i.servicedDate}`))] : [];
  const claimed = new Set<string>();
  if (wanted.length > 0) {
    const excludedIds = [subject.id, subject.appealOfId, subject.replacesId].filter((id): id is string => Boolean(id));
    for (const key of await reads.claimedServiceDays(db, { patientNationalId: subject.patientNationalId, keys: wanted, excludedIds, appealOfId: subject.appealOfId })) claimed.add(key);
  }

  await yieldToEventLoop();
  // Every line's contract price in one query (lib/contracts), not one per line.
  const priced = insurerId
    ? await contractPricesFor(
        db,
        { insurerId, ...plan },
        read.items.map((i) => ({ system: i.system, code: i.code, date: i.servicedDate })),
      )
    : [];
  const items: ScrubItem[] = [];
  for (const [n, i] of read.items.entries()) {
    const contract = i.system && i.servicedDate ? priced[n] : undefined;
    // The code's benefit category in its own list (CPT or the exchange's), the one the sandbox adjudicates with.
    const category = benefitCategoryOf(i.system || undefined, i.code);
    items.push({
      ...i,
      ...(i.system && isExcludedService(i.system, i.code) ? { excluded: true } : {}),
      ...(category ? { category } : {}),
      ...(contract ? { contract: { priceMinor: contract.priceMinor, authorizationRequired: contract.authorizationRequired } } : {}),
      ...(subject.kind === "claim" && claimed.has(`${i.code}|${i.servicedDate}`) ? { alreadyClaimed: true } : {}),
    });
  }

  await yieldToEventLoop();
  const authorizations: AuthorizationFact[] = [];
  if (read.preAuthRefs.length > 0) {
    for (const id of await reads.decidedAuthorizationIds(db, subject.patientNationalId, read.preAuthRefs)) {
      const usage = await authorizationUsage(db as Db, id, subject.id);
      if (!usage) continue;
      authorizations.push({
        preAuthRef: usage.preAuthRef ?? "",
        ...(usage.period?.start ? { periodStart: usage.period.start } : {}),
        ...(usage.period?.end ? { periodEnd: usage.period.end } : {}),
        lines: usage.services.map((s) => ({ code: s.code, approved: s.approvedQuantity, used: s.usedQuantity })),
      });
    }
  }

  await yieldToEventLoop();
  let filingDays: number | undefined;
  if (insurerId) {
    filingDays = await providedFilingWindowRead()(db, insurerId);
  }

  return {
    use: subject.kind,
    ...(insurerId ? { insurerId } : {}),
    today: at.toISOString().slice(0, 10),
    ...(read.claimType ? { claimType: read.claimType } : {}),
    ...(read.subType ? { subType: read.subType } : {}),
    supportingInfo: read.supportingInfo,
    diagnoses: read.diagnoses,
    ...(patient ? { patient: { birthDate: patient.birthDate, gender: patient.gender } } : {}),
    ...(eligibility ? { eligibility } : {}),
    ...(subject.eligibilityUnconfirmed !== undefined ? { eligibilityUnconfirmed: subject.eligibilityUnconfirmed } : {}),
    items,
    authorizations,
    preAuthRefs: read.preAuthRefs,
    offline: read.offline,
    ...(filingDays !== undefined ? { filingDays } : {}),
    messageBytes: Buffer.byteLength(JSON.stringify(subject.claim), "utf8"),
    messageLimitBytes: MESSAGE_LIMIT_BYTES,
  };
}

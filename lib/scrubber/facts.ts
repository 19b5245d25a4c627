import { and, desc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import { authorizationUsage } from "@/lib/authorization-usage";
import { contractPriceFor } from "@/lib/contracts";
import type { Db, Tx } from "@/lib/db";
import { eligibilityChecks, patients, submissions, tables } from "@/lib/db";
import { MESSAGE_LIMIT_BYTES, nphies, priceListSystemKey, toMinorUnits } from "@/lib/fhir";
import type { AuthorizationFact, ScrubFacts, ScrubItem } from "./types";

/**
 * The facts the rules look at, gathered from the stored claim and the database in the caller's
 * transaction (docs/decisions/090): the patient, the last eligibility answer, the contract price
 * of each line on its date, the referenced authorizations and what other claims used of them,
 * services already claimed for the patient on the same day, the payer's filing window and the
 * message's size.
 */

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v.filter((x) => typeof x === "object" && x !== null) as Json[]) : []);
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const codingOf = (concept: unknown) => arr(obj(concept).coding)[0] ?? {};
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Claim states that count: on their way or decided (not a draft, never sent, or voided). */
const NOT_COUNTED = ["draft", "rejected", "failed", "cancelled"] as const;

export interface ClaimUnderCheck {
  id?: string;
  kind: "claim" | "preauthorization";
  /** National ID / Iqama (the platform's patient id). */
  patientId: string;
  insurerId: string | null;
  claim: Json;
  /**
   * The claim this one appeals or replaces (docs/decisions/081): their lines are the same services
   * on purpose, so neither they nor the other appeals of the same claim count as duplicates.
   */
  appealOfId?: string | null;
  replacesId?: string | null;
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
  };
}

export async function gatherFacts(db: Db | Tx, subject: ClaimUnderCheck, at: Date): Promise<ScrubFacts> {
  const read = readClaim(subject.claim);
  const insurerId = subject.insurerId ?? undefined;
  const [patient] = await db.select({ id: patients.id, birthDate: patients.birthDate, gender: patients.gender }).from(patients).where(eq(patients.nationalId, subject.patientId)).limit(1);

  let eligibility: ScrubFacts["eligibility"];
  if (patient && insurerId) {
    const [check] = await db
      .select({ inforce: eligibilityChecks.inforce, checkedAt: eligibilityChecks.checkedAt, servicedDate: eligibilityChecks.servicedDate })
      .from(eligibilityChecks)
      .where(and(eq(eligibilityChecks.patientId, patient.id), eq(eligibilityChecks.insurerId, insurerId), ne(eligibilityChecks.outcome, "rejected")))
      .orderBy(desc(eligibilityChecks.checkedAt))
      .limit(1);
    if (check) eligibility = { inforce: check.inforce, checkedAt: check.checkedAt.toISOString(), servicedDate: check.servicedDate };
  }

  // Services of this patient already claimed, by code and day.
  const others = await db
    .select({ claim: submissions.claim })
    .from(submissions)
    .where(
      and(
        eq(submissions.kind, "claim"),
        eq(submissions.patientId, subject.patientId),
        notInArray(submissions.status, [...NOT_COUNTED]),
        ...(subject.id ? [ne(submissions.id, subject.id)] : []),
        ...[subject.appealOfId, subject.replacesId].filter((id): id is string => Boolean(id)).map((id) => ne(submissions.id, id)),
        ...(subject.appealOfId ? [sql`${submissions.appealOfId} is distinct from ${subject.appealOfId}`] : []),
      ),
    );
  const claimed = new Set(others.flatMap((o) => readClaim(o.claim).items.map((i) => `${i.code}|${i.servicedDate}`)));

  const items: ScrubItem[] = [];
  for (const i of read.items) {
    const contract = insurerId && i.system && i.servicedDate ? await contractPriceFor(db, { insurerId, system: i.system, code: i.code, date: i.servicedDate }) : undefined;
    items.push({
      ...i,
      ...(contract ? { contract: { priceMinor: contract.priceMinor, authorizationRequired: contract.authorizationRequired } } : {}),
      ...(subject.kind === "claim" && claimed.has(`${i.code}|${i.servicedDate}`) ? { alreadyClaimed: true } : {}),
    });
  }

  const authorizations: AuthorizationFact[] = [];
  if (read.preAuthRefs.length > 0) {
    const auths = await db
      .select({ id: submissions.id })
      .from(submissions)
      .where(
        and(
          eq(submissions.kind, "preauthorization"),
          eq(submissions.patientId, subject.patientId),
          inArray(submissions.status, ["complete", "partial"]),
          inArray(sql<string>`${submissions.responseView} ->> 'preAuthRef'`, read.preAuthRefs),
        ),
      );
    for (const a of auths) {
      const usage = await authorizationUsage(db as Db, a.id, subject.id);
      if (!usage) continue;
      authorizations.push({
        preAuthRef: usage.preAuthRef ?? "",
        ...(usage.period?.start ? { periodStart: usage.period.start } : {}),
        ...(usage.period?.end ? { periodEnd: usage.period.end } : {}),
        lines: usage.services.map((s) => ({ code: s.code, approved: s.approvedQuantity, used: s.usedQuantity })),
      });
    }
  }

  let filingDays: number | undefined;
  if (insurerId) {
    const [w] = await db.select({ days: tables.insurerFilingWindows.submissionDays }).from(tables.insurerFilingWindows).where(eq(tables.insurerFilingWindows.insurerId, insurerId)).limit(1);
    filingDays = w?.days;
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
    items,
    authorizations,
    preAuthRefs: read.preAuthRefs,
    ...(filingDays !== undefined ? { filingDays } : {}),
    messageBytes: Buffer.byteLength(JSON.stringify(subject.claim), "utf8"),
    messageLimitBytes: MESSAGE_LIMIT_BYTES,
  };
}

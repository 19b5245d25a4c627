import { and, desc, eq, gte, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { coverages, insurers, submissions } from "@/lib/db";

/** What a message is about, to find the payer it goes to. */
export interface PayerTarget {
  /** `Coverage/{id}` id (coverages.coverage_ref). */
  coverage?: string;
  /** The payer's Organization id (insurers.id). */
  insurer?: string;
  /** The platform's Claim id of a submission (submissions.platform_id). */
  claimId?: string;
}

/** The payer's licence on the exchange (`payer-license`), or undefined when not known. */
export type PayerLicenseResolver = (target: PayerTarget) => Promise<string | undefined>;

const coverageIdOf = (claim: Record<string, unknown>): string | undefined => {
  const insurance = (claim.insurance as { coverage?: { reference?: string } }[] | undefined)?.[0];
  const m = /(?:^|\/)Coverage\/([A-Za-z0-9\-.]{1,64})$/.exec(insurance?.coverage?.reference ?? "");
  return m?.[1];
};

/** Reads licences from the portal's database: insurers.license, through coverages and submissions. */
export function payerLicenseFromDb(db: Db): PayerLicenseResolver {
  return async (target) => {
    if (target.insurer) {
      const [row] = await db.select({ license: insurers.license }).from(insurers).where(eq(insurers.id, target.insurer)).limit(1);
      return row?.license ?? undefined;
    }
    let coverage = target.coverage;
    if (!coverage && target.claimId) {
      const [row] = await db.select({ claim: submissions.claim }).from(submissions).where(eq(submissions.platformId, target.claimId)).limit(1);
      coverage = row ? coverageIdOf(row.claim) : undefined;
    }
    if (!coverage) return undefined;
    const [row] = await db
      .select({ license: insurers.license })
      .from(coverages)
      .innerJoin(insurers, eq(coverages.insurerId, insurers.id))
      .where(eq(coverages.coverageRef, coverage))
      .limit(1);
    return row?.license ?? undefined;
  };
}

/** The platform Claim ids the portal knows for a patient (national ID) since a day, newest first. */
export type KnownClaimsResolver = (query: { patient: string; createdOnOrAfter: string }, limit: number) => Promise<string[]>;

/**
 * The messaging protocol has no search (decision 050): "the patient's claims at the platform" are
 * the ones the portal sent, each asked about with a status-check. Read from submissions.
 */
export function knownClaimsFromDb(db: Db): KnownClaimsResolver {
  return async (query, limit) => {
    const since = new Date(`${query.createdOnOrAfter}T00:00:00Z`);
    const rows = await db
      .select({ platformId: submissions.platformId })
      .from(submissions)
      .where(and(eq(submissions.patientId, query.patient), isNotNull(submissions.platformId), ...(Number.isNaN(since.getTime()) ? [] : [gte(submissions.createdAt, since)])))
      .orderBy(desc(submissions.createdAt))
      .limit(limit);
    return rows.flatMap((r) => (r.platformId ? [r.platformId] : []));
  };
}

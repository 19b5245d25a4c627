import type { Claim } from "@medplum/fhirtypes";
import { and, desc, eq, gte, isNotNull, or } from "drizzle-orm";
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
  /** Our business identifier of a submission's Claim (decision 073: the platform id may never come). */
  claimIdentifier?: { system?: string; value: string };
}

/** The payer's licence on the exchange (`payer-license`), or undefined when not known. */
export type PayerLicenseResolver = (target: PayerTarget) => Promise<string | undefined>;

const coverageIdOf = (claim: Record<string, unknown>): string | undefined => {
  const insurance = (claim.insurance as { coverage?: { reference?: string } }[] | undefined)?.[0];
  const m = /(?:^|\/)Coverage\/([A-Za-z0-9\-.]{1,64})$/.exec(insurance?.coverage?.reference ?? "");
  return m?.[1];
};

const byIdentifier = (identifier: { system?: string; value: string }) =>
  and(eq(submissions.identifierValue, identifier.value), ...(identifier.system ? [eq(submissions.identifierSystem, identifier.system)] : []));

/** Reads licences from the portal's database: insurers.license, through coverages and submissions. */
/** An insurer's name by its payer licence (a Task's owner is a profiled Organization, which names it). */
export type PayerNameResolver = (license: string) => Promise<string | undefined>;

export function payerNameFromDb(db: Db): PayerNameResolver {
  return async (license) => {
    const [row] = await db.select({ name: insurers.nameEn }).from(insurers).where(eq(insurers.license, license)).limit(1);
    return row?.name;
  };
}

export function payerLicenseFromDb(db: Db): PayerLicenseResolver {
  return async (target) => {
    if (target.insurer) {
      const [row] = await db.select({ license: insurers.license }).from(insurers).where(eq(insurers.id, target.insurer)).limit(1);
      return row?.license ?? undefined;
    }
    let coverage = target.coverage;
    if (!coverage && target.claimIdentifier) {
      const [row] = await db.select({ claim: submissions.claim }).from(submissions).where(byIdentifier(target.claimIdentifier)).limit(1);
      coverage = row ? coverageIdOf(row.claim) : undefined;
    }
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

/** A claim the portal sent: as sent, named by our identifier, with the platform's id when it gave one. */
export interface KnownClaim {
  claim: Claim;
  identifier: { system?: string; value: string };
  platformId?: string;
}

/** The claims the portal sent for a patient (national ID) since a day, newest first. */
export type KnownClaimsResolver = (query: { patient: string; createdOnOrAfter: string }, limit: number) => Promise<KnownClaim[]>;

/**
 * The messaging protocol has no search (decision 050): "the patient's claims at the platform" are
 * the ones the portal sent, each asked about with a status-check. Read from submissions.
 */
export function knownClaimsFromDb(db: Db): KnownClaimsResolver {
  return async (query, limit) => {
    const since = new Date(`${query.createdOnOrAfter}T00:00:00Z`);
    const rows = await db
      .select({ platformId: submissions.platformId, claim: submissions.claim, system: submissions.identifierSystem, value: submissions.identifierValue })
      .from(submissions)
      // Sent: the platform took it (its id is kept when given, never required — decision 073).
      .where(and(eq(submissions.patientNationalId, query.patient), eq(submissions.kind, "claim"), or(isNotNull(submissions.sentAt), isNotNull(submissions.platformId)), ...(Number.isNaN(since.getTime()) ? [] : [gte(submissions.createdAt, since)])))
      .orderBy(desc(submissions.createdAt))
      .limit(limit);
    return rows.flatMap((r) => {
      const claim = r.claim as unknown as Claim | null;
      const value = r.value ?? claim?.identifier?.[0]?.value;
      if (!claim || !value) return [];
      const system = r.system ?? claim.identifier?.[0]?.system;
      return [{ claim, identifier: { ...(system ? { system } : {}), value }, ...(r.platformId ? { platformId: r.platformId } : {}) }];
    });
  };
}

/** The Claim the portal holds under our identifier (what a Communication or a Task names it by). */
export type ClaimByIdentifierResolver = (identifier: { system?: string; value: string }) => Promise<Claim | undefined>;

export function claimByIdentifierFromDb(db: Db): ClaimByIdentifierResolver {
  return async (identifier) => {
    const [row] = await db.select({ claim: submissions.claim }).from(submissions).where(byIdentifier(identifier)).limit(1);
    return (row?.claim as unknown as Claim | null) ?? undefined;
  };
}

/** The Claim the portal sent under a platform id, with our identifier of it (decision 073). */
export type SentClaimResolver = (platformId: string) => Promise<{ claim: Claim; identifier: { system?: string; value: string } } | undefined>;

/** Reads what the portal sent from submissions (the Claim as stored when queued). */
export function sentClaimsFromDb(db: Db): SentClaimResolver {
  return async (platformId) => {
    const [row] = await db
      .select({ claim: submissions.claim, system: submissions.identifierSystem, value: submissions.identifierValue })
      .from(submissions)
      .where(eq(submissions.platformId, platformId))
      .limit(1);
    if (!row) return undefined;
    const claim = row.claim as unknown as Claim;
    const stored = row.value ? { system: row.system ?? undefined, value: row.value } : claim.identifier?.[0];
    if (!stored?.value) return undefined;
    return { claim, identifier: { ...(stored.system ? { system: stored.system } : {}), value: stored.value } };
  };
}

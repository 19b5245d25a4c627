import type { Claim } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { insurers } from "@/lib/db";
import { coverageLicenseByRef } from "@/lib/patients";
import type { SentClaimReads } from "./sent-claims";

/** What a message is about, to find the payer it goes to. */
export interface PayerTarget {
  /** `Coverage/{id}` id (coverages.coverage_ref). */
  coverage?: string;
  /** The payer's Organization id (insurers.id). */
  insurer?: string;
  /** The platform's Claim id of a submission (its platform id). */
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

/** An insurer's name by its payer licence (a Task's owner is a profiled Organization, which names it). */
export type PayerNameResolver = (license: string) => Promise<string | undefined>;

export function payerNameFromDb(db: Db): PayerNameResolver {
  return async (license) => {
    const [row] = await db.select({ name: insurers.nameEn }).from(insurers).where(eq(insurers.license, license)).limit(1);
    return row?.name;
  };
}

/** Reads licences from the portal's database: insurers.license, through coverages and the claims sent. */
export function payerLicenseFromDb(db: Db, sent: SentClaimReads): PayerLicenseResolver {
  return async (target) => {
    if (target.insurer) {
      const [row] = await db.select({ license: insurers.license }).from(insurers).where(eq(insurers.id, target.insurer)).limit(1);
      return row?.license ?? undefined;
    }
    let coverage = target.coverage;
    if (!coverage && target.claimIdentifier) {
      const row = await sent.claimByIdentifier(target.claimIdentifier);
      coverage = row ? coverageIdOf(row.claim) : undefined;
    }
    if (!coverage && target.claimId) {
      const row = await sent.claimByPlatformId(target.claimId);
      coverage = row ? coverageIdOf(row.claim) : undefined;
    }
    if (!coverage) return undefined;
    const row = await coverageLicenseByRef(db, coverage);
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
 * the ones the portal sent, each asked about with a status-check.
 */
export function knownClaimsOf(sent: SentClaimReads): KnownClaimsResolver {
  return async (query, limit) => {
    const since = new Date(`${query.createdOnOrAfter}T00:00:00Z`);
    const rows = await sent.claimsSentFor({ patient: query.patient, ...(Number.isNaN(since.getTime()) ? {} : { createdOnOrAfter: since }) }, limit);
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

export function claimByIdentifierOf(sent: SentClaimReads): ClaimByIdentifierResolver {
  return async (identifier) => {
    const row = await sent.claimByIdentifier(identifier);
    return (row?.claim as unknown as Claim | null) ?? undefined;
  };
}

/** The Claim the portal sent under a platform id, with our identifier of it (decision 073). */
export type SentClaimResolver = (platformId: string) => Promise<{ claim: Claim; identifier: { system?: string; value: string } } | undefined>;

/** What the portal sent under a platform id (the Claim as stored when queued). */
export function sentClaimOf(sent: SentClaimReads): SentClaimResolver {
  return async (platformId) => {
    const row = await sent.claimByPlatformId(platformId);
    if (!row) return undefined;
    const claim = row.claim as unknown as Claim;
    const stored = row.value ? { system: row.system ?? undefined, value: row.value } : claim.identifier?.[0];
    if (!stored?.value) return undefined;
    return { claim, identifier: { ...(stored.system ? { system: stored.system } : {}), value: stored.value } };
  };
}

import type { Db } from "@/lib/db";
import { handedDown } from "@/lib/handed-down";

/*
 * The reads of the claims the portal sent that the messaging port needs, handed down by the
 * composition (docs/decisions/127, 128). Kept apart from payer-license.ts, and importing only a
 * type and the holder, so that the tests' setup can wire them without loading the patient registry (a test
 * that mocks next/headers must be the first to load what reads the request).
 */

/** A Claim the portal stored when it queued a submission, with our identifier of it as stored (columns, null when not kept apart). */
export interface StoredClaimRow {
  claim: Record<string, unknown>;
  system: string | null;
  value: string | null;
}

/**
 * What the messaging port needs to know of the claims the portal sent. The submissions belong to
 * a higher layer (docs/decisions/127): lib/submissions implements these reads (`sentClaimReads`)
 * and the composition hands them to the port (`provideSentClaims` at boot, or `portFor`'s third
 * argument). Plain rows; the port makes its answers from them.
 */
export interface SentClaimReads {
  /** The stored Claim under our business identifier (system optional), if any. */
  claimByIdentifier(identifier: { system?: string; value: string }): Promise<{ claim: Record<string, unknown> } | undefined>;
  /** The stored Claim under the platform's Claim id, if any. */
  claimByPlatformId(platformId: string): Promise<StoredClaimRow | undefined>;
  /** The claims sent (taken by the platform) for a patient's national ID, created on or after a moment when given, newest first. */
  claimsSentFor(query: { patient: string; createdOnOrAfter?: Date }, limit: number): Promise<(StoredClaimRow & { platformId: string | null })[]>;
}

const sentClaims = handedDown<(db: Db) => SentClaimReads>("platform.sent-claims", "no reads of the sent claims for the messaging port: the composition (lib/server boot) provides them");

/** Called once at boot (and by the tests' setup) with lib/submissions' reads (lib/handed-down.ts). */
export const provideSentClaims = sentClaims.provide;

/** The reads given at boot over this database; refuses when none were given (a messaging port cannot work without them). */
export function providedSentClaims(db: Db): SentClaimReads {
  return sentClaims.provided()(db);
}

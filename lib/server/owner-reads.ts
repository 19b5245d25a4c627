import { providePlannedUnder, provideSentUnder } from "@/lib/patients";
import { provideSentClaims } from "@/lib/platform";
import { hasSubmissionsFor, sentClaimReads } from "@/lib/submissions";
import { hasVisitsFor } from "@/lib/visits";

/**
 * The reads lower layers need of a higher owner's tables, handed down by the composition
 * (docs/decisions/127, 128): the patient registry's "anything sent under this national ID?" and
 * the messaging port's claims the portal sent, both lib/submissions', and the registry's "any
 * visit planned under it?", lib/visits'. Boot calls it first; the tests' setup
 * (lib/server/testing/owner-reads.ts) calls it too.
 */
export function provideOwnerReads(): void {
  provideSentUnder(hasSubmissionsFor);
  providePlannedUnder(hasVisitsFor);
  provideSentClaims(sentClaimReads);
}

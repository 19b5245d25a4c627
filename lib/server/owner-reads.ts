import { provideSentUnder } from "@/lib/patients";
import { provideSentClaims } from "@/lib/platform";
import { hasSubmissionsFor, sentClaimReads } from "@/lib/submissions";

/**
 * The reads lower layers need of a higher owner's tables, handed down by the composition
 * (docs/decisions/127): the patient registry's "anything sent under this national ID?" and the
 * messaging port's claims the portal sent, both lib/submissions'. Boot calls it first; the tests'
 * setup (lib/server/testing/owner-reads.ts) calls it too.
 */
export function provideOwnerReads(): void {
  provideSentUnder(hasSubmissionsFor);
  provideSentClaims(sentClaimReads);
}

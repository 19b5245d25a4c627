import { filingWindowDays } from "@/lib/deadlines";
import { providePlannedUnder, provideSentUnder } from "@/lib/patients";
import { provideSentClaims } from "@/lib/platform";
import { provideFilingWindowRead } from "@/lib/scrubber";
import { hasSubmissionsFor, sentClaimReads } from "@/lib/submissions";
import { hasVisitsFor } from "@/lib/visits";

/**
 * The reads lower layers need of a higher owner's tables, handed down by the composition
 * (docs/decisions/127, 128): the patient registry's "anything sent under this national ID?" and
 * the messaging port's claims the portal sent, both lib/submissions', the registry's "any
 * visit planned under it?", lib/visits', and the scrubber's payer filing window, lib/deadlines'.
 * Boot calls it first; the tests' setup (lib/server/testing/owner-reads.ts) does the same, and the
 * scripts that queue or send in their own process import that setup.
 */
export function provideOwnerReads(): void {
  provideSentUnder(hasSubmissionsFor);
  providePlannedUnder(hasVisitsFor);
  provideFilingWindowRead(filingWindowDays);
  provideSentClaims(sentClaimReads);
}

/**
 * lib/scrubber: the claim scrubber (docs/decisions/090) — before an authorization or a claim
 * leaves (lib/submissions' queueing, the one place every channel passes), rules kept as data
 * (lib/scrubber/rules) find what the payer or the exchange would reject, each finding with its
 * rejection family and code, the element, words in both languages and the fix.
 */
import type { Db, Tx } from "@/lib/db";
import { scrubFactsYielding } from "./engine";
import { gatherFacts, type ClaimUnderCheck } from "./facts";
import type { ScrubResult } from "./types";

export { BASE_RULES, PAYER_OVERRIDES, reasonCodesCaught, rulesFor, scrubFacts } from "./engine";
export { gatherFacts, readClaim, type ClaimUnderCheck } from "./facts";
export { ageOn } from "./checks";
export { provideFilingWindowRead, provideScrubReads, type FilingWindowRead, type ScrubReads } from "./reads";
export type { AuthorizationFact, RuleDef, ScrubFacts, ScrubFinding, ScrubItem, ScrubResult, Severity, Words } from "./types";

/** Gathers the facts of a claim and runs the payer's rule set on them, yielding to the event loop between steps (docs/decisions/093). */
export async function scrubClaim(db: Db | Tx, subject: ClaimUnderCheck, at: Date): Promise<ScrubResult> {
  return scrubFactsYielding(await gatherFacts(db, subject, at));
}

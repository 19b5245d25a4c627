import type { Db, Tx } from "@/lib/db";

/**
 * What the scrubber needs to read of the submissions, which belong to lib/submissions
 * (docs/decisions/127). lib/submissions runs the scrubber when it queues (and before the outbox
 * sends), so this module cannot import it back: the owner implements these reads and hands them
 * over when it loads (`provideScrubReads`, lib/submissions/lifecycle.ts). Both run in the caller's
 * transaction.
 */
export interface ScrubReads {
  /**
   * Which of these "code|day" keys occur on the patient's other counted claims (not a draft,
   * rejected, failed or cancelled; not `excludedIds`; with `appealOfId`, not another appeal of the
   * same claim): only the keys, never those claims (docs/decisions/093).
   */
  claimedServiceDays(db: Db | Tx, query: { patientNationalId: string; keys: readonly string[]; excludedIds: readonly string[]; appealOfId?: string | null }): Promise<string[]>;
  /** The patient's decided (complete, partial) authorizations whose answer carries one of these references: their ids. */
  decidedAuthorizationIds(db: Db | Tx, patientNationalId: string, preAuthRefs: readonly string[]): Promise<string[]>;
}

// On globalThis: Next.js may load this module in more than one bundle of the same process.
const KEY = Symbol.for("clinic-exchange.scrubber.reads");
const holder = globalThis as { [KEY]?: ScrubReads };

/** Called by lib/submissions when it loads, with its reads. */
export function provideScrubReads(reads: ScrubReads): void {
  holder[KEY] = reads;
}

/** The reads lib/submissions gave; refuses when none were (lib/submissions was never loaded). */
export function providedScrubReads(): ScrubReads {
  const reads = holder[KEY];
  if (!reads) throw new Error("no reads of the submissions for the scrubber: lib/submissions provides them when it loads");
  return reads;
}

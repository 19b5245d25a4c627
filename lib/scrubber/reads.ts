import { handedDown } from "@/lib/handed-down";
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

const scrubReads = handedDown<ScrubReads>("scrubber.reads", "no reads of the submissions for the scrubber: lib/submissions provides them when it loads");
/** Called by lib/submissions when it loads, with its reads. */
export const provideScrubReads = scrubReads.provide;
/** The reads lib/submissions gave; refuses when none were (lib/submissions was never loaded). */
export const providedScrubReads = scrubReads.provided;

/**
 * The submission window of a payer's settings in days (undefined: none set), read in the caller's
 * transaction. The settings belong to lib/deadlines (docs/decisions/128), which sits above this
 * module (it reads the submissions, which run the scrubber), and lib/submissions does not own
 * them either: the composition hands lib/deadlines' `filingWindowDays` over at boot
 * (lib/server/owner-reads.ts; the tests' setup and the scripts that queue do the same).
 */
export type FilingWindowRead = (db: Db | Tx, insurerId: string) => Promise<number | undefined>;

const filingWindow = handedDown<FilingWindowRead>("scrubber.filing-window", "no read of the payers' filing windows for the scrubber: the composition (lib/server boot) provides it");
/** Called once at boot with lib/deadlines' read. */
export const provideFilingWindowRead = filingWindow.provide;
/** The read given at boot; refuses (rather than check without the payer's window) when none was given. */
export const providedFilingWindowRead = filingWindow.provided;

import { handedDown } from "@/lib/handed-down";
import type { Db } from "@/lib/db";

/**
 * What the usage needs to read of the submissions, which belong to lib/submissions
 * (docs/decisions/127). lib/submissions calls this module (the claim form's usage, the scrubber's
 * authorizations), so this module cannot import it back: the owner implements these reads and
 * hands them over when it loads (`provideAuthorizationUsageReads`, lib/submissions/lifecycle.ts).
 */
export interface AuthorizationUsageReads {
  /** A submission's kind, status, Claim as sent and the view of its answer, by id. */
  authorization(db: Db, id: string): Promise<{ kind: string; status: string; claim: Record<string, unknown>; view: Record<string, unknown> | null } | undefined>;
  /**
   * The Claims of the claims that consume this authorization (made from it or, given
   * `versionIds`, from any of its versions; queued, sent, pended or paid for), but `excludeId`'s.
   */
  consumingClaims(db: Db, authorizationId: string, versionIds: readonly string[], excludeId?: string): Promise<{ claim: Record<string, unknown> }[]>;
}

const usageReads = handedDown<AuthorizationUsageReads>("authorization-usage.reads", "no reads of the submissions for the authorization usage: lib/submissions provides them when it loads");
/** Called by lib/submissions when it loads, with its reads. */
export const provideAuthorizationUsageReads = usageReads.provide;
/** The reads lib/submissions gave; refuses when none were (lib/submissions was never loaded). */
export const providedAuthorizationUsageReads = usageReads.provided;

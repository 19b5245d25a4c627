import { and, eq, inArray, ne } from "drizzle-orm";
import type { AuthorizationUsageReads } from "@/lib/authorization-usage";
import { submissions } from "@/lib/db";

/** Claim states that consume an authorization: on their way or paid for. */
const CONSUMING = ["queued", "sent", "pended", "complete", "partial"] as const;

/**
 * The authorization usage's reads (lib/authorization-usage, docs/decisions/048): an authorization
 * as decided, and the claims that consume it. Handed to that module when this one loads.
 */
export const authorizationUsageReads: AuthorizationUsageReads = {
  async authorization(db, id) {
    const [row] = await db
      .select({ id: submissions.id, kind: submissions.kind, status: submissions.status, claim: submissions.claim, view: submissions.responseView })
      .from(submissions)
      .where(eq(submissions.id, id))
      .limit(1);
    return row;
  },
  async consumingClaims(db, authorizationId, versionIds, excludeId) {
    return db
      .select({ claim: submissions.claim })
      .from(submissions)
      .where(
        and(
          versionIds.length > 0 ? inArray(submissions.authorizationId, [...new Set([authorizationId, ...versionIds])]) : eq(submissions.authorizationId, authorizationId),
          eq(submissions.kind, "claim"),
          inArray(submissions.status, [...CONSUMING]),
          ...(excludeId ? [ne(submissions.id, excludeId)] : []),
        ),
      );
  },
};

import { and, desc, eq, gte, isNotNull, or } from "drizzle-orm";
import { submissions, type Db } from "@/lib/db";
import type { SentClaimReads, StoredClaimRow } from "@/lib/platform";

/** Our business identifier (system optional) as a filter on the submissions' identifier columns. */
const byIdentifier = (identifier: { system?: string; value: string }) =>
  and(eq(submissions.identifierValue, identifier.value), ...(identifier.system ? [eq(submissions.identifierSystem, identifier.system)] : []));

/**
 * The claims the portal sent, as the messaging port reads them (lib/platform, a lower layer: the
 * composition hands these reads to it — docs/decisions/127). Plain rows of the stored Claim and
 * our identifier columns.
 */
export function sentClaimReads(db: Db): SentClaimReads {
  return {
    async claimByIdentifier(identifier) {
      const [row] = await db.select({ claim: submissions.claim }).from(submissions).where(byIdentifier(identifier)).limit(1);
      return row;
    },
    async claimByPlatformId(platformId): Promise<StoredClaimRow | undefined> {
      const [row] = await db
        .select({ claim: submissions.claim, system: submissions.identifierSystem, value: submissions.identifierValue })
        .from(submissions)
        .where(eq(submissions.platformId, platformId))
        .limit(1);
      return row;
    },
    async claimsSentFor(query, limit) {
      return db
        .select({ platformId: submissions.platformId, claim: submissions.claim, system: submissions.identifierSystem, value: submissions.identifierValue })
        .from(submissions)
        // Sent: the platform took it (its id is kept when given, never required — decision 073).
        .where(and(eq(submissions.patientNationalId, query.patient), eq(submissions.kind, "claim"), or(isNotNull(submissions.sentAt), isNotNull(submissions.platformId)), ...(query.createdOnOrAfter ? [gte(submissions.createdAt, query.createdOnOrAfter)] : [])))
        .orderBy(desc(submissions.createdAt))
        .limit(limit);
    },
  };
}

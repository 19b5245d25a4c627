import { and, eq, inArray, sql } from "drizzle-orm";
import { submissions } from "@/lib/db";
import type { ScrubReads } from "@/lib/scrubber";

/** Claim states that count: on their way or decided (not a draft, never sent, or voided). */
const NOT_COUNTED = ["draft", "rejected", "failed", "cancelled"] as const;

/**
 * The scrubber's reads (lib/scrubber, docs/decisions/090): services the patient already claimed,
 * the authorizations a claim refers to. Handed to that module when this one loads.
 */
export const scrubReads: ScrubReads = {
  // One query through the patient's index (submissions_patient_idx) that hands back only the
  // wanted code-and-day pairs found on the patient's other counted claims (docs/decisions/093).
  async claimedServiceDays(db, { patientNationalId, keys, excludedIds, appealOfId }) {
    const lineKey = sql`coalesce(e #>> '{productOrService,coding,0,code}', '') || '|' || coalesce(nullif(left(e ->> 'servicedDate', 10), ''), left(e #>> '{servicedPeriod,start}', 10), '')`;
    const result = await db.execute(sql`
      select distinct ${lineKey} as key
        from ${submissions} s
        cross join lateral jsonb_array_elements(case when jsonb_typeof(s.claim -> 'item') = 'array' then s.claim -> 'item' else '[]'::jsonb end) e
       where s.patient_id = ${patientNationalId}
         and s.kind = 'claim'
         and s.status not in (${sql.join(NOT_COUNTED.map((x) => sql`${x}`), sql`, `)})
         ${excludedIds.length > 0 ? sql`and s.id not in (${sql.join(excludedIds.map((id) => sql`${id}`), sql`, `)})` : sql``}
         ${appealOfId ? sql`and s.appeal_of_id is distinct from ${appealOfId}` : sql``}
         and ${lineKey} in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})`);
    return (result as unknown as { rows: { key: string }[] }).rows.map((row) => row.key);
  },
  async decidedAuthorizationIds(db, patientNationalId, preAuthRefs) {
    const rows = await db
      .select({ id: submissions.id })
      .from(submissions)
      .where(
        and(
          eq(submissions.kind, "preauthorization"),
          eq(submissions.patientNationalId, patientNationalId),
          inArray(submissions.status, ["complete", "partial"]),
          inArray(sql<string>`${submissions.responseView} ->> 'preAuthRef'`, [...preAuthRefs]),
        ),
      );
    return rows.map((r) => r.id);
  },
};

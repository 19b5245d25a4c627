import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db";
import type { SubmissionStatus } from "@/lib/db";
import { encodeCursor } from "./cursor";
import type { ClaimsQuery } from "./params";

/** One row as the query reads it (only the columns the API shows — never the whole Claim). */
export interface ClaimRow {
  id: string;
  identifier_value: string | null;
  status: SubmissionStatus;
  kind: string;
  patient_id: string;
  insurer_id: string | null;
  /** created_at as UTC text with microseconds (the cursor key). */
  created_key: string;
  sent_at: Date | string | null;
  decided_at: Date | string | null;
  total_minor: number | null;
  currency: string | null;
  /** The stored reader's view of the answer's totals (`response_view.total`: named amounts as the payer stated them). */
  stated_total: unknown;
  /** The raw answer, only for a row stored without a view's totals (read once here instead). */
  response_raw: unknown;
  /** ClaimResponse.payment. */
  payment: unknown;
  platform_id: string | null;
  /** Decision 046: when the platform confirmed the cancellation (the final change of a cancelled claim). */
  cancelled_at: Date | string | null;
  /** Decision 045: the payers' information requests still waiting for an answer. */
  information_requests_open: number;
}

export interface ClaimsPage {
  rows: ClaimRow[];
  nextCursor: string | null;
  hasMore: boolean;
}

const COLUMNS = sql.raw(`s.id, s.identifier_value, s.status, s.kind, s.patient_id, s.insurer_id, s.created_at,
  to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key,
  s.sent_at, s.decided_at, s.total_minor, s.currency, s.response_view->'total' as stated_total,
  case when s.response_view -> 'total' is null then s.response end as response_raw,
  s.response->'payment' as payment, s.platform_id,
  case when s.status = 'cancelled' then s.updated_at end as cancelled_at,
  (select count(*)::int from information_requests ir where ir.submission_id = s.id and ir.status = 'open') as information_requests_open`);
// NULLS LAST as in the indexes (drizzle `.desc()`): with the default NULLS FIRST the planner cannot use them.
const ORDER = sql.raw(`order by created_at desc nulls last, id desc nulls last`);

/**
 * The clinic's claims, newest first, keyset-paginated on (created_at, id) so a page deep in the
 * list costs what the first one does and inserts never shift it.
 *
 * Plans (see docs/decisions/021-claims-api-shape.md): without filters, the (created_at, id)
 * index is read in order; with a patient, that patient's index; with statuses, one ordered
 * branch per status on the (status, created_at) index, merged (UNION ALL + LIMIT → Merge Append),
 * because a single index scan cannot return several statuses in created_at order.
 */
export async function listClaims(db: Db, q: ClaimsQuery): Promise<ClaimsPage> {
  const take = q.limit + 1;
  const common: SQL[] = [sql`s.kind = 'claim'`];
  if (q.patient !== undefined) common.push(sql`s.patient_id = ${q.patient}`);
  if (q.createdGte) common.push(sql`s.created_at >= ${q.createdGte.toISOString()}::timestamptz`);
  if (q.createdLt) common.push(sql`s.created_at < ${q.createdLt.toISOString()}::timestamptz`);
  if (q.cursor) common.push(sql`(s.created_at, s.id) < (${q.cursor.createdAt}::timestamptz, ${q.cursor.id}::uuid)`);

  const select = (extra: SQL[]) => sql`select ${COLUMNS} from submissions s where ${sql.join([...common, ...extra], sql` and `)} ${ORDER} limit ${take}`;
  let query: SQL;
  if (!q.statuses?.length) query = select([]);
  else if (q.patient !== undefined || q.statuses.length === 1) {
    query = select([sql`s.status in (${sql.join(q.statuses.map((s) => sql`${s}`), sql`, `)})`]);
  } else {
    const branches = q.statuses.map((s) => sql`(${select([sql`s.status = ${s}`])})`);
    query = sql`select * from (${sql.join(branches, sql` union all `)}) page ${ORDER} limit ${take}`;
  }
  const found = await queryRows<ClaimRow>(db, query);
  const rows = found.slice(0, q.limit);
  const hasMore = found.length > q.limit;
  const last = rows.at(-1);
  return { rows, hasMore, nextCursor: hasMore && last ? encodeCursor({ createdAt: last.created_key, id: last.id }) : null };
}

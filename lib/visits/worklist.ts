import { sql, type SQL } from "drizzle-orm";
import type { Db, VisitVerdict, VisitVerdictDetail } from "@/lib/db";
import { queryRows, VISIT_VERDICTS } from "@/lib/db";
import { PROBLEM_VERDICTS, VERDICT_SEVERITY } from "./verdict";
import { isUuid } from "@/lib/ids";

export interface WorklistFilters {
  /** Service date (YYYY-MM-DD); default all. */
  date?: string;
  listId?: string;
  /** One verdict, `problems` (every verdict but in force), or `unchecked`. */
  verdict?: VisitVerdict | "problems" | "unchecked";
  /** Name or national ID prefix. */
  q?: string;
  limit?: number;
}

export interface WorklistRow {
  visitId: string;
  listId: string;
  listName: string;
  line: number;
  serviceDate: string;
  nationalId: string;
  patientId: string | null;
  patientName: string | null;
  insurerId: string | null;
  insurerNameEn: string | null;
  insurerNameAr: string | null;
  services: string[];
  checkState: "waiting" | "done";
  verdict: VisitVerdict | null;
  detail: VisitVerdictDetail | null;
  checkId: string | null;
  checkedAt: string | null;
}

export function parseWorklistFilters(params: Record<string, string | string[] | undefined>): WorklistFilters {
  const one = (k: string) => (typeof params[k] === "string" ? (params[k] as string).trim() : undefined);
  const date = one("date");
  const verdict = one("verdict");
  const listId = one("list");
  return {
    ...(date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? { date } : {}),
    ...(verdict && ((VISIT_VERDICTS as readonly string[]).includes(verdict) || verdict === "problems" || verdict === "unchecked") ? { verdict: verdict as WorklistFilters["verdict"] } : {}),
    ...(listId && isUuid(listId) ? { listId } : {}),
    ...(one("q") ? { q: one("q")!.slice(0, 60) } : {}),
  };
}

/** The morning worklist: most serious verdicts first, then by date and list line. */
export async function worklist(db: Db, filters: WorklistFilters = {}): Promise<WorklistRow[]> {
  const where: SQL[] = [sql`true`];
  if (filters.date) where.push(sql`v.service_date = ${filters.date}`);
  if (filters.listId) where.push(sql`v.list_id = ${filters.listId}`);
  if (filters.verdict === "problems") where.push(sql`v.verdict in (${sql.join(PROBLEM_VERDICTS.map((x) => sql`${x}`), sql`, `)})`);
  else if (filters.verdict === "unchecked") where.push(sql`v.check_state = 'waiting'`);
  else if (filters.verdict) where.push(sql`v.verdict = ${filters.verdict}`);
  if (filters.q) {
    const q = filters.q.replace(/[\\%_]/g, "\\$&");
    where.push(/^\d+$/.test(filters.q) ? sql`v.national_id like ${`${q}%`}` : sql`(p.given_name || ' ' || p.family_name) ilike ${`%${q}%`}`);
  }
  const severity = sql.join(
    VERDICT_SEVERITY.map((v, i) => sql`when ${v} then ${i}`),
    sql` `,
  );
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select v.id, v.list_id, l.name as list_name, v.line, v.service_date::text as service_date, v.national_id, v.patient_id,
               case when p.id is null then null else p.given_name || ' ' || p.family_name end as patient_name,
               coalesce(v.insurer_id, c.insurer_id) as insurer_id, i.name_en, i.name_ar, v.services, v.check_state, v.verdict, v.verdict_detail,
               v.check_id, v.checked_at
        from visits v
        join visit_lists l on l.id = v.list_id
        left join patients p on p.id = v.patient_id
        left join lateral (select insurer_id from coverages c where c.patient_id = v.patient_id and (v.insurer_id is null or c.insurer_id = v.insurer_id) order by c.created_at limit 1) c on true
        left join insurers i on i.id = coalesce(v.insurer_id, c.insurer_id)
        where ${sql.join(where, sql` and `)}
        order by case v.verdict ${severity} else 99 end, v.service_date, l.created_at desc, v.line
        limit ${Math.min(2000, filters.limit ?? 500)}`,
  );
  return rows.map((r) => ({
    visitId: String(r.id),
    listId: String(r.list_id),
    listName: String(r.list_name),
    line: Number(r.line),
    serviceDate: String(r.service_date),
    nationalId: String(r.national_id),
    patientId: (r.patient_id as string | null) ?? null,
    patientName: (r.patient_name as string | null) ?? null,
    insurerId: (r.insurer_id as string | null) ?? null,
    insurerNameEn: (r.name_en as string | null) ?? null,
    insurerNameAr: (r.name_ar as string | null) ?? null,
    services: (r.services as string[] | null) ?? [],
    checkState: r.check_state as "waiting" | "done",
    verdict: (r.verdict as VisitVerdict | null) ?? null,
    detail: (typeof r.verdict_detail === "string" ? JSON.parse(r.verdict_detail) : r.verdict_detail) as VisitVerdictDetail | null,
    checkId: (r.check_id as string | null) ?? null,
    checkedAt: r.checked_at ? new Date(r.checked_at as string).toISOString() : null,
  }));
}

export interface AheadStats {
  days: number;
  visits: number;
  checkedAhead: number;
  /** checkedAhead / visits, 0–1 (0 without visits). */
  share: number;
  problemsAhead: number;
  problemsAtCounter: number;
}

/**
 * Dashboard figures over the last `days` days of service dates (through tomorrow): visits checked
 * before their day (by a run), problems found that way, and problems found at the counter
 * (interactive checks by staff that were not in force or refused).
 */
export async function aheadStats(db: Db, today: string, days = 30): Promise<AheadStats> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`select count(*)::int as visits,
               count(*) filter (where v.check_state = 'done' and v.checked_at < (v.service_date::timestamp + interval '1 day'))::int as ahead,
               count(*) filter (where v.check_state = 'done' and v.verdict in (${sql.join(PROBLEM_VERDICTS.map((x) => sql`${x}`), sql`, `)}))::int as problems
        from visits v
        where v.service_date > (${today}::date - ${days}::int) and v.service_date <= (${today}::date + 1)`,
  );
  const [counter] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from eligibility_checks e
        where e.checked_by is not null and e.outcome in ('not_in_force', 'rejected') and e.checked_at > (${today}::date - ${days}::int)`,
  );
  const visits = Number(row?.visits ?? 0);
  const checkedAhead = Number(row?.ahead ?? 0);
  return { days, visits, checkedAhead, share: visits ? checkedAhead / visits : 0, problemsAhead: Number(row?.problems ?? 0), problemsAtCounter: Number(counter?.n ?? 0) };
}

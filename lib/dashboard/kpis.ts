import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db";
import { medianDecisionSeconds, rollupRows } from "./queries";
import type { DashboardRange } from "./range";

/*
 * The dashboard's headline figures (docs/decisions/052) for a range and for the period of the same length
 * just before it, from the same rollups as the widgets (so any range up to 24 months stays fast).
 * Claims only; "submitted" is every claim created in the range that left the draft state.
 */

export interface KpiFigures {
  submitted: number;
  adjudicated: number;
  approved: number;
  partial: number;
  denied: number;
  /** Sent to the platform and not decided yet (sent, pended). */
  outstanding: number;
  benefitMinor: string;
  copayMinor: string;
  medianSeconds: number | null;
}

export interface Kpis {
  current: KpiFigures;
  previous: KpiFigures;
  /** Length of both periods in days (the previous one ends where the range starts). */
  days: number;
}

/** The period of the same length that ends where `range` starts. */
export function previousRange(range: DashboardRange): DashboardRange {
  const length = range.end.getTime() - range.start.getTime();
  return { ...range, start: new Date(range.start.getTime() - length), end: new Date(range.start) };
}

async function figures(db: Db, range: DashboardRange): Promise<KpiFigures> {
  const [rows, median] = await Promise.all([
    queryRows<{ status: string; n: string; benefit: string; copay: string }>(db, sql`
      select status, coalesce(sum(count), 0)::text as n,
        coalesce(sum(benefit_minor), 0)::text as benefit, coalesce(sum(copay_minor), 0)::text as copay
      from ${rollupRows(range, { category: false })}
      where kind = 'claim'
      group by status`),
    medianDecisionSeconds(db, range),
  ]);
  const count = (...statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).reduce((a, r) => a + Number(r.n), 0);
  const decided = rows.filter((r) => ["complete", "partial", "denied"].includes(r.status));
  const sum = (key: "benefit" | "copay") => decided.reduce((a, r) => a + BigInt(r[key]), 0n).toString();
  return {
    submitted: rows.filter((r) => r.status !== "draft").reduce((a, r) => a + Number(r.n), 0),
    adjudicated: count("complete", "partial", "denied"),
    approved: count("complete"),
    partial: count("partial"),
    denied: count("denied"),
    outstanding: count("sent", "pended"),
    benefitMinor: sum("benefit"),
    copayMinor: sum("copay"),
    medianSeconds: median.median,
  };
}

export async function kpis(db: Db, range: DashboardRange): Promise<Kpis> {
  const [current, previous] = await Promise.all([figures(db, range), figures(db, previousRange(range))]);
  return { current, previous, days: Math.round((range.end.getTime() - range.start.getTime()) / 86_400_000) };
}

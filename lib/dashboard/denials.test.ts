import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { listClaims } from "@/lib/claims";
import { queryRows } from "@/lib/db";
import { submissions } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { deleteSubmissions, insertSubmissions, patchSubmission } from "@/lib/submissions/testing";
import { reasonCodesCaught } from "@/lib/scrubber";
import { buildTable, denialBreakdown, denialTrend, loadTable, parseRange, reasonClaimsHref, scrubberCatchShare, setDashboardClock, toCsv, topFixableReasons } from "./index";

/*
 * Denial analytics against a hand-computed fixture (docs/decisions/077). Clinic time zone
 * Asia/Riyadh (UTC+3): November runs from 2026-10-31T21:00Z to 2026-11-30T21:00Z.
 *
 * C1 payer-a 11-05 partial: item 1 (99213, PR-1) 250.00 → 200.00 price-list (BE) reduced 50.00; item 2 approved
 * C2 payer-b 11-10 denied:  item 1 (85025) 120.01 ar001 (CV) rejected; item 2 (36415) 30.00 PAYER-77 (no family) rejected
 * C3 payer-a 10-31T21:00Z (local 11-01 00:00, inside) partial: item 1 (99202, "Dr. Noor") 100.00 → 40.00 SE-1-1 reduced 60.00
 * C4 payer-a 10-31T20:59Z (outside) denied: 999.99 BE-1-2
 * C5 payer-b 11-20 complete: item 1 (99214) approved with reason AD-1-4, 80.00 → 60.00: reduced 20.00
 * C8 payer-a 11-30T20:59Z (local 23:59, inside) denied: item 1 (70553) 10.50 (no minor given) preauth-required (AD) rejected
 * plus a denied preauthorization and a sent claim: no lines.
 *
 * Rejected 120.01 + 30.00 + 10.50 = 160.51; reduced 50.00 + 60.00 + 20.00 = 130.00; six lines.
 */
const TZ = "Asia/Riyadh";
const november = parseRange({ from: "2026-11-01", to: "2026-11-30" }, TZ);

const money = (minor: number | undefined, value: number) => ({ value, ...(minor !== undefined ? { minor } : {}), currency: "SAR" });
interface Line {
  seq: number;
  service: string;
  decision: "approved" | "partly-approved" | "denied";
  submitted: number;
  benefit?: number;
  reason?: string;
  noMinor?: boolean;
}
function row(id: number, insurerId: string, created: string, status: "complete" | "partial" | "denied" | "sent", lines: Line[], practitioner?: { identifier?: string; display?: string }, kind: "claim" | "preauthorization" = "claim") {
  return {
    kind,
    status,
    patientNationalId: "1000000001",
    insurerId,
    identifierSystem: "https://clinic.example/fhir/claim-id",
    identifierValue: `denials-${id}`,
    claim: {
      resourceType: "Claim",
      ...(practitioner ? { careTeam: [{ sequence: 1, provider: { ...(practitioner.identifier ? { identifier: { value: practitioner.identifier } } : {}), ...(practitioner.display ? { display: practitioner.display } : {}) } }] } : {}),
      item: lines.map((l) => ({ sequence: l.seq, ...(practitioner ? { careTeamSequence: [1] } : {}), productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: l.service }] } })),
    },
    responseView:
      status === "sent"
        ? null
        : {
            decision: status,
            items: lines.map((l) => ({
              kind: "item",
              sequence: l.seq,
              decision: l.decision,
              amounts: {
                submitted: money(l.noMinor ? undefined : l.submitted, l.submitted / 100),
                ...(l.benefit !== undefined ? { benefit: money(l.noMinor ? undefined : l.benefit, l.benefit / 100) } : {}),
              },
              reasons: l.reason ? [{ system: "http://nphies.sa/terminology/CodeSystem/adjudication-reason", code: l.reason }] : [],
            })),
          },
    totalMinor: lines.reduce((a, l) => a + l.submitted, 0),
    currency: "SAR",
    createdAt: new Date(created),
  };
}

const FIXTURE = [
  row(1, "payer-a", "2026-11-05T08:00:00Z", "partial", [
    { seq: 1, service: "99213", decision: "partly-approved", submitted: 25_000, benefit: 20_000, reason: "price-list" },
    { seq: 2, service: "71046", decision: "approved", submitted: 10_000, benefit: 10_000 },
  ], { identifier: "PR-1" }),
  row(2, "payer-b", "2026-11-10T08:00:00Z", "denied", [
    { seq: 1, service: "85025", decision: "denied", submitted: 12_001, reason: "ar001" },
    { seq: 2, service: "36415", decision: "denied", submitted: 3_000, benefit: 0, reason: "PAYER-77" },
  ]),
  row(3, "payer-a", "2026-10-31T21:00:00Z", "partial", [{ seq: 1, service: "99202", decision: "partly-approved", submitted: 10_000, benefit: 4_000, reason: "SE-1-1" }], { display: "Dr. Noor" }),
  row(4, "payer-a", "2026-10-31T20:59:00Z", "denied", [{ seq: 1, service: "99213", decision: "denied", submitted: 99_999, benefit: 0, reason: "BE-1-2" }]),
  row(5, "payer-b", "2026-11-20T08:00:00Z", "complete", [{ seq: 1, service: "99214", decision: "approved", submitted: 8_000, benefit: 6_000, reason: "AD-1-4" }]),
  row(8, "payer-a", "2026-11-30T20:59:00Z", "denied", [{ seq: 1, service: "70553", decision: "denied", submitted: 1_050, benefit: 0, reason: "preauth-required", noMinor: true }]),
  row(9, "payer-a", "2026-11-12T08:00:00Z", "denied", [{ seq: 1, service: "70553", decision: "denied", submitted: 50_000, benefit: 0, reason: "MN-1-1" }], undefined, "preauthorization"),
  row(10, "payer-a", "2026-11-13T08:00:00Z", "sent", [{ seq: 1, service: "70553", decision: "denied", submitted: 50_000 }]),
];

const pick = (rows: { key: string; family: string; lines: number; rejectedMinor: string; reducedMinor: string; atStakeMinor: string }[]) =>
  rows.map((r) => [r.key, r.family, r.lines, r.rejectedMinor, r.reducedMinor, r.atStakeMinor]);

/** The rollup recomputed from the lines, to compare with what the triggers kept. */
const RECOMPUTE = `select c.grain, c.dimension, c.period, c.insurer_id, c.key, c.family, c.outcome, sum(c.sign)::int as lines, sum(c.at_stake)::text as stake
  from denial_lines l, denial_contribution(l, 1) c group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`;
const KEPT = `select grain, dimension, period, insurer_id, key, family, outcome, lines::int as lines, at_stake_minor::text as stake
  from denial_rollup where lines <> 0 or at_stake_minor <> 0 order by 1, 2, 3, 4, 5, 6, 7`;

/**
 * The trend's clinic-day rows (decision 107) recomputed from the lines alone, without the
 * contribution function: each line's UTC hour, in the day of the zone in `dashboard_clock`.
 */
const DAYS_RECOMPUTE = `select d.dimension, date_trunc('day', date_trunc('hour', l.created_at, 'UTC'), (select time_zone from dashboard_clock)) as period,
    case when d.dimension = 'trend' then l.insurer_id else '' end as insurer_id, l.outcome, count(*)::int as lines, sum(l.at_stake_minor)::text as stake
  from denial_lines l, (values ('trend'), ('trend-all')) d (dimension) group by 1, 2, 3, 4 order by 1, 2, 3, 4`;
const DAYS_KEPT = `select dimension, period, insurer_id, outcome, lines::int as lines, at_stake_minor::text as stake
  from denial_rollup where grain = 'clinic-day' and key = '' and family = '' and (lines <> 0 or at_stake_minor <> 0) order by 1, 2, 3, 4`;

describe.each(testDatabases())("denial analytics on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
    await insertSubmissions(database.db, FIXTURE);
  });
  afterAll(async () => database?.dispose());

  it("stores every denied or reduced claim line with its family and the money at stake", async () => {
    const lines = await queryRows<{ ref: string; sequence: number; outcome: string; reason_code: string; family: string; service_code: string; practitioner: string; submitted: string; benefit: string; stake: string }>(
      database.db,
      sql`select s.identifier_value as ref, l.sequence, l.outcome, l.reason_code, l.family, l.service_code, l.practitioner,
        l.submitted_minor::text as submitted, l.benefit_minor::text as benefit, l.at_stake_minor::text as stake
        from denial_lines l join submissions s on s.id = l.submission_id order by 1, 2`,
    );
    expect(lines.map((l) => [l.ref, l.sequence, l.outcome, l.reason_code, l.family, l.service_code, l.practitioner, l.submitted, l.benefit, l.stake])).toEqual([
      ["denials-1", 1, "reduced", "price-list", "BE", "99213", "PR-1", "25000", "20000", "5000"],
      ["denials-2", 1, "rejected", "ar001", "CV", "85025", "", "12001", "0", "12001"],
      ["denials-2", 2, "rejected", "PAYER-77", "", "36415", "", "3000", "0", "3000"],
      ["denials-3", 1, "reduced", "SE-1-1", "SE", "99202", "Dr. Noor", "10000", "4000", "6000"],
      ["denials-4", 1, "rejected", "BE-1-2", "BE", "99213", "", "99999", "0", "99999"],
      ["denials-5", 1, "reduced", "AD-1-4", "AD", "99214", "", "8000", "6000", "2000"],
      ["denials-8", 1, "rejected", "preauth-required", "AD", "70553", "", "1050", "0", "1050"],
    ]);
  });

  it("sums rejected and reduced money by family, reason, insurer, service and practitioner", async () => {
    const db = database.db;
    expect(pick(await denialBreakdown(db, november, "family"))).toEqual([
      ["CV", "CV", 1, "12001", "0", "12001"],
      ["SE", "SE", 1, "0", "6000", "6000"],
      ["BE", "BE", 1, "0", "5000", "5000"],
      ["AD", "AD", 2, "1050", "2000", "3050"],
      ["", "", 1, "3000", "0", "3000"],
    ]);
    expect(pick(await denialBreakdown(db, november, "reason"))).toEqual([
      ["ar001", "CV", 1, "12001", "0", "12001"],
      ["SE-1-1", "SE", 1, "0", "6000", "6000"],
      ["price-list", "BE", 1, "0", "5000", "5000"],
      ["PAYER-77", "", 1, "3000", "0", "3000"],
      ["AD-1-4", "AD", 1, "0", "2000", "2000"],
      ["preauth-required", "AD", 1, "1050", "0", "1050"],
    ]);
    expect(pick(await denialBreakdown(db, november, "insurer"))).toEqual([
      ["payer-b", "", 3, "15001", "2000", "17001"],
      ["payer-a", "", 3, "1050", "11000", "12050"],
    ]);
    expect(pick(await denialBreakdown(db, november, "service")).map((r) => [r[0], r[5]])).toEqual([
      ["85025", "12001"],
      ["99202", "6000"],
      ["99213", "5000"],
      ["36415", "3000"],
      ["99214", "2000"],
      ["70553", "1050"],
    ]);
    expect(pick(await denialBreakdown(db, november, "practitioner")).map((r) => [r[0], r[2], r[5]])).toEqual([
      ["", 4, "18051"],
      ["Dr. Noor", 1, "6000"],
      ["PR-1", 1, "5000"],
    ]);
    // One insurer only.
    expect(pick(await denialBreakdown(db, { ...november, insurerId: "payer-b" }, "family")).map((r) => [r[0], r[5]])).toEqual([
      ["CV", "12001"],
      ["", "3000"],
      ["AD", "2000"],
    ]);
  });

  it("reads whole months too: October to December adds the claim a minute before November", async () => {
    const quarter = parseRange({ from: "2026-10-01", to: "2026-12-31" }, TZ);
    const families = pick(await denialBreakdown(database.db, quarter, "family"));
    expect(families[0]).toEqual(["BE", "BE", 2, "99999", "5000", "104999"]);
    expect(families.reduce((a, r) => a + BigInt(r[5] as string), 0n)).toBe(104_999n + 12_001n + 6_000n + 3_050n + 3_000n);
  });

  it("ranks the fixable reasons (AD, BE, SE) by money at stake, and links to their claims", async () => {
    const db = database.db;
    const top = await topFixableReasons(db, november);
    expect(top.map((r) => [r.key, r.family, r.atStakeMinor])).toEqual([
      ["SE-1-1", "SE", "6000"],
      ["price-list", "BE", "5000"],
      ["AD-1-4", "AD", "2000"],
      ["preauth-required", "AD", "1050"],
    ]);
    const href = reasonClaimsHref("SE-1-1", november);
    expect(href).toBe("/claims?reason=SE-1-1&from=2026-11-01&to=2026-11-30");
    const listed = await listClaims(db, { reason: "SE-1-1", from: "2026-11-01", to: "2026-11-30", timeZone: TZ });
    expect(listed.rows.map((r) => r.identifierValue)).toEqual(["denials-3"]);
    const ar001 = await listClaims(db, { reason: "ar001", timeZone: TZ });
    expect(ar001.rows.map((r) => r.identifierValue)).toEqual(["denials-2"]);
  });

  it("gives the trend per clinic day and the tables' data for the CSV (money as plain decimals)", async () => {
    const db = database.db;
    expect((await denialTrend(db, november)).map((r) => [r.period, r.lines, r.rejectedMinor, r.reducedMinor])).toEqual([
      ["2026-11-01", 1, "0", "6000"],
      ["2026-11-05", 1, "0", "5000"],
      ["2026-11-10", 2, "15001", "0"],
      ["2026-11-20", 1, "0", "2000"],
      ["2026-11-30", 1, "1050", "0"],
    ]);
    // Read from one row per clinic day (decision 107); in step with the lines; and the same answer
    // from the hour rows while the stored days are another zone's.
    expect(await queryRows(db, sql.raw(DAYS_KEPT))).toEqual(await queryRows(db, sql.raw(DAYS_RECOMPUTE)));
    const perDay = await denialTrend(db, november);
    expect(await setDashboardClock(db, "America/New_York")).toBe(true);
    expect(await queryRows(db, sql.raw(DAYS_KEPT))).toEqual(await queryRows(db, sql.raw(DAYS_RECOMPUTE)));
    expect(await denialTrend(db, november)).toEqual(perDay);
    // In New York's days C3 (21:00Z) and C4 (20:59Z) are both on 31 October; in Riyadh's, C3 is on 1 November.
    expect((await denialTrend(db, parseRange({ from: "2026-10-31", to: "2026-11-30" }, "America/New_York"))).map((r) => [r.period, r.lines])).toEqual([
      ["2026-10-31", 2],
      ["2026-11-05", 1],
      ["2026-11-10", 2],
      ["2026-11-20", 1],
      ["2026-11-30", 1],
    ]);
    expect(await setDashboardClock(db, TZ)).toBe(true);
    expect(await denialTrend(db, { ...november, insurerId: "payer-b" })).toEqual([
      { period: "2026-11-10", lines: 2, rejectedMinor: "15001", reducedMinor: "0" },
      { period: "2026-11-20", lines: 1, rejectedMinor: "0", reducedMinor: "2000" },
    ]);
    const t = (key: string) => key;
    const ctx = { t, words: t, locale: "en", insurerName: (id: string) => id, range: november };
    const fixable = buildTable("denialFixable", await loadTable("denialFixable", db, november), ctx);
    expect(fixable.data[0]).toEqual(["Vital signs are inadequate or missing", "SE-1-1", "Supporting evidence", "1", "0.00", "60.00", "60.00"]);
    expect(fixable.links?.[0]).toBe("/claims?reason=SE-1-1&from=2026-11-01&to=2026-11-30");
    const reasons = buildTable("denialReasons", await loadTable("denialReasons", db, november), { ...ctx, locale: "ar" });
    expect(reasons.data.find((r) => r[1] === "PAYER-77")).toEqual(["PAYER-77", "PAYER-77", "denials.unclassified", "1", "30.00", "0.00", "30.00"]);
    expect(reasons.data.find((r) => r[1] === "ar001")?.slice(0, 3)).toEqual(["غير مشمول بالتغطية", "ar001", "التغطية"]);
    const csv = toCsv({ ...buildTable("denialFamilies", await loadTable("denialFamilies", db, november), ctx), currencyLabel: "Currency" });
    expect(csv.split("\r\n").slice(0, 3)).toEqual([
      "\uFEFFdenials.columns.family,denials.columns.lines,denials.columns.rejected,denials.columns.reduced,denials.columns.atStake,Currency",
      "Coverage,1,120.01,0.00,120.01,SAR",
      "Supporting evidence,1,0.00,60.00,60.00,SAR",
    ]);
  });

  it("splits the money at stake by whether a scrubber rule checks the line's reason", async () => {
    const db = database.db;
    // Base rules catch SE-1-1 (emergency vital signs), price-list (contract price),
    // preauth-required (authorization missing) and ar001 (service excluded); PAYER-77 and AD-1-4 no rule checks.
    expect(await scrubberCatchShare(db, november, [...reasonCodesCaught().keys()])).toEqual({
      caught: { lines: 4, atStakeMinor: "24051" },
      missed: { lines: 2, atStakeMinor: "5000" },
    });
    expect(await scrubberCatchShare(db, { ...november, insurerId: "payer-b" }, [...reasonCodesCaught("payer-b").keys()])).toEqual({
      caught: { lines: 1, atStakeMinor: "12001" },
      missed: { lines: 2, atStakeMinor: "5000" },
    });
    expect(await scrubberCatchShare(db, november, [])).toMatchObject({ caught: { lines: 0 }, missed: { lines: 6, atStakeMinor: "29051" } });
    const t = (key: string) => key;
    const table = buildTable("denialScrubber", await loadTable("denialScrubber", db, november), { t, words: t, locale: "en", insurerName: (id: string) => id, range: november });
    expect(table.data).toEqual([
      ["denials.scrubber.caught", "4", "0.6667", "240.51", "0.8278"],
      ["denials.scrubber.missed", "2", "0.3333", "50.00", "0.1721"],
    ]);
    expect(table.rows[0]).toEqual(["denials.scrubber.caught", "4", "66.7%", expect.stringContaining("240.51"), "82.8%"]);
  });

  it("keeps the lines and the rollup in step when a decision changes or a claim goes", async () => {
    const db = database.db;
    const idOf = async (value: string) => (await db.select({ id: submissions.id }).from(submissions).where(eq(submissions.identifierValue, value)))[0]!.id;
    // C2 cancelled: its lines go; C5's decision is replaced by one without a reason: its line goes too.
    await patchSubmission(db, await idOf("denials-2"), { status: "cancelled" });
    await patchSubmission(db, await idOf("denials-5"), { responseView: { items: [{ kind: "item", sequence: 1, decision: "approved", amounts: { submitted: money(8_000, 80), benefit: money(8_000, 80) }, reasons: [] }] } });
    // A lease-only update leaves everything as it was.
    await patchSubmission(db, await idOf("denials-1"), { attempts: 3 });
    await deleteSubmissions(db, [await idOf("denials-8")]);
    expect(pick(await denialBreakdown(db, november, "family")).map((r) => [r[0], r[5]])).toEqual([
      ["SE", "6000"],
      ["BE", "5000"],
    ]);
    expect(await queryRows(db, sql.raw(KEPT))).toEqual(await queryRows(db, sql.raw(RECOMPUTE)));
    expect(await queryRows(db, sql.raw(DAYS_KEPT))).toEqual(await queryRows(db, sql.raw(DAYS_RECOMPUTE)));
  });
});

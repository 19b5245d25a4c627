import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submissions } from "@/lib/db/schema";
import { NATIONAL_EXCHANGE } from "@/lib/fhir";
import { testDatabases } from "@/lib/testing/databases";
import {
  authorizationRates,
  buildTable,
  dashboardData,
  formatMoney,
  kpis,
  medianDecisionSeconds,
  minorToDecimal,
  parseRange,
  rejectionReasons,
  statusCounts,
  toCsv,
  totalsByCategory,
  totalsByInsurer,
  trend,
} from "./index";
import { deleteSubmissions, insertSubmissions, patchEverySubmission, patchSubmission } from "@/lib/submissions/testing";

const TZ = "Asia/Riyadh";
const range = parseRange({ from: "2026-11-01", to: "2026-11-30" }, TZ);
const ADJ = "http://terminology.hl7.org/CodeSystem/adjudication";

function claim(code: string) {
  return { resourceType: "Claim", item: [{ sequence: 1, productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code }] } }] };
}
/**
 * An answer's totals; the patient's share is stated in the exchange's own category (`patientShare`,
 * decision 098) — by default equal to the copay, `share` when the payer states another figure (VAT on
 * the copay), none when `share` is null.
 */
function response(amounts: { submitted: string; eligible: string; copay: string; benefit: string; share?: string | null }, disposition = "Approved") {
  const { share, ...stated } = amounts;
  const patientShare = share === undefined ? amounts.copay : share;
  return {
    resourceType: "ClaimResponse",
    disposition,
    total: [
      ...Object.entries(stated).map(([code, value]) => ({ category: { coding: [{ system: ADJ, code }] }, amount: { value: Number(value), currency: "SAR" } })),
      ...(patientShare === null ? [] : [{ category: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationSystem, code: "patientShare" }] }, amount: { value: Number(patientShare), currency: "SAR" } }]),
    ],
  };
}
const at = (iso: string, plusSeconds = 0) => new Date(new Date(iso).getTime() + plusSeconds * 1000);

type Row = typeof submissions.$inferInsert;
function decided(kind: "claim" | "preauthorization", insurerId: string, code: string, created: string, status: Row["status"], totalMinor: number, amounts: Parameters<typeof response>[0], seconds: number, disposition?: string): Row {
  return {
    kind,
    status,
    patientNationalId: "1000000001",
    insurerId,
    claim: claim(code),
    totalMinor,
    currency: "SAR",
    response: response(amounts, disposition),
    createdAt: at(created),
    sentAt: at(created, 10),
    decidedAt: at(created, 10 + seconds),
  };
}

/** Recomputes the rollup from scratch, to compare with what the triggers kept. */
const RECOMPUTE = `
  select c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign)::int as count, sum(c.submitted)::text as submitted,
    sum(c.eligible)::text as eligible, sum(c.benefit)::text as benefit, sum(c.copay)::text as copay, sum(c.decided)::int as decided, sum(c.seconds)::text as seconds
  from submissions s, dashboard_contribution(s, 1) c group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6`;
const KEPT = `
  select hour, insurer_id, kind, category, status, reason, count::int as count, submitted_minor::text as submitted,
    eligible_minor::text as eligible, benefit_minor::text as benefit, copay_minor::text as copay, decided_count::int as decided, decide_seconds::text as seconds
  from adjudication_hourly where count <> 0 or submitted_minor <> 0 or decide_seconds <> 0 order by 1, 2, 3, 4, 5, 6`;

describe("money and ranges", () => {
  it("formats minor units exactly, even beyond float precision", () => {
    expect(minorToDecimal("123456789012345678")).toBe("1234567890123456.78");
    expect(minorToDecimal(-5)).toBe("-0.05");
    expect(minorToDecimal(0)).toBe("0.00");
    expect(formatMoney("900719925474099301", "en")).toBe("SAR\u00a09,007,199,254,740,993.01");
    expect(formatMoney("12345", "ar")).toMatch(/123\.45|١٢٣٫٤٥/);
  });

  it("turns clinic days into a half-open UTC interval; defaults to the last 30 days", () => {
    expect(range.start.toISOString()).toBe("2026-10-31T21:00:00.000Z");
    expect(range.end.toISOString()).toBe("2026-11-30T21:00:00.000Z");
    const d = parseRange({}, TZ, new Date("2026-11-21T22:30:00Z"));
    expect([d.from, d.to, d.bucket]).toEqual(["2026-10-24", "2026-11-22", "day"]);
    const swapped = parseRange({ from: "2026-11-30", to: "2026-11-01", bucket: "nope", insurer: "payer-a" }, TZ);
    expect([swapped.from, swapped.to, swapped.bucket, swapped.insurerId]).toEqual(["2026-11-01", "2026-11-30", "day", "payer-a"]);
    // Up to 24 months as asked; a longer range keeps its latest 731 days.
    expect(parseRange({ from: "2025-01-01", to: "2026-11-30" }, TZ).from).toBe("2025-01-01");
    expect(parseRange({ from: "2020-01-01", to: "2026-11-30" }, TZ).from).toBe("2024-11-30");
  });

  it("writes CSV with the table's data cells (quotes, commas, formulas)", () => {
    const csv = toCsv({ columns: ["a", "b,c"], data: [['say "hi"', "=1+1"], ["-cmd", "-1234.50"]] });
    expect(csv).toBe('\uFEFFa,"b,c"\r\n"say ""hi""",\'=1+1\r\n\'-cmd,-1234.50\r\n');
  });

  it("neutralises formula-looking names in every position, and keeps negative amounts as numbers (docs/decisions/094)", () => {
    const csv = toCsv({ columns: ["Insurer", "Net"], data: [["-2+3+cmd|' /C calc'!A0", "-12.50"], ["@SUM(1+1)", "7"], ["\t=1", "0.00"], ["+1", "-0.01"]], currency: "SAR" });
    expect(csv.split("\r\n").slice(1, 5)).toEqual(["'-2+3+cmd|' /C calc'!A0,-12.50,SAR", "'@SUM(1+1),7,SAR", "'\t=1,0.00,SAR", "'+1,-0.01,SAR"]);
  });

  it("writes money as plain decimals with a currency column, for spreadsheets to add", () => {
    const csv = toCsv({ columns: ["Insurer", "Submitted"], data: [["شركة", "22981.65"]], currency: "SAR", currencyLabel: "Currency" });
    expect(csv).toBe("\uFEFFInsurer,Submitted,Currency\r\nشركة,22981.65,SAR\r\n");
  });
});

describe.each(testDatabases())("dashboard on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
    const db = database.db;
    await insertSubmissions(db, [
      decided("claim", "payer-a", "99213", "2026-11-05T08:00:00Z", "complete", 25_000, { submitted: "250.00", eligible: "250.00", copay: "50.00", benefit: "200.00" }, 600),
      decided("claim", "payer-a", "71046", "2026-11-06T08:00:00Z", "partial", 36_000, { submitted: "360.00", eligible: "360.00", copay: "322.00", benefit: "38.00" }, 1200, "Partly covered"),
      decided("claim", "payer-b", "85025", "2026-11-10T08:00:00Z", "denied", 12_001, { submitted: "120.01", eligible: "0.00", copay: "0.00", benefit: "0.00" }, 3600, "Not covered"),
      // Local midnight of 1 November (21:00 UTC the day before): inside the range …
      decided("claim", "payer-b", "99202", "2026-10-31T21:00:00Z", "complete", 1, { submitted: "0.01", eligible: "0.01", copay: "0.00", benefit: "0.01" }, 300),
      // … one minute before it: outside.
      decided("claim", "payer-a", "99213", "2026-10-31T20:59:00Z", "complete", 99_999, { submitted: "999.99", eligible: "999.99", copay: "0.00", benefit: "999.99" }, 5),
      decided("preauthorization", "payer-a", "70553", "2026-11-02T08:00:00Z", "complete", 250_000, { submitted: "2500.00", eligible: "2500.00", copay: "500.00", benefit: "2000.00" }, 1),
      decided("preauthorization", "payer-a", "58970", "2026-11-02T09:00:00Z", "denied", 100_000, { submitted: "1000.00", eligible: "0.00", copay: "0.00", benefit: "0.00" }, 1, "Not covered"),
      decided("preauthorization", "payer-a", "29881", "2026-11-03T09:00:00Z", "partial", 1_000_000, { submitted: "10000.00", eligible: "9000.00", copay: "0.00", benefit: "9000.00" }, 1, "Partly covered"),
      decided("preauthorization", "payer-b", "70553", "2026-11-04T09:00:00Z", "complete", 250_000, { submitted: "2500.00", eligible: "2500.00", copay: "500.00", benefit: "2000.00" }, 1),
      {
        kind: "claim",
        status: "rejected",
        patientNationalId: "1000000001",
        insurerId: "payer-b",
        claim: claim("99213"),
        totalMinor: 5_000,
        errors: [{ code: "ERR-003", status: 422, diagnostics: "Invalid code" }],
        createdAt: at("2026-11-11T08:00:00Z"),
      },
    ]);
  });
  afterAll(async () => database?.dispose());

  it("headline figures for the range and the period of the same length before it", async () => {
    const db = database.db;
    const k = await kpis(db, range);
    expect(k.days).toBe(30);
    // November (clinic days): four decided claims (one at local midnight of the 1st) and one rejected.
    expect(k.current).toMatchObject({ submitted: 5, adjudicated: 4, approved: 2, partial: 1, denied: 1, outstanding: 0, benefitMinor: "23801", copayMinor: "37200" });
    expect(k.current.medianSeconds).toBeGreaterThan(0);
    // The 30 days before: the claim one minute before the range, decided in 5 s.
    expect(k.previous).toMatchObject({ submitted: 1, adjudicated: 1, approved: 1, partial: 0, denied: 0, outstanding: 0, benefitMinor: "99999", copayMinor: "0" });
    expect(k.previous.medianSeconds).toBeLessThanOrEqual(6);
    // A claim sent and waiting counts as submitted and outstanding; a draft counts nowhere; a preauthorization is not a claim.
    await insertSubmissions(db, [
      { kind: "claim", status: "sent", patientNationalId: "1000000001", insurerId: "payer-a", claim: claim("99213"), totalMinor: 1_000, createdAt: at("2026-11-12T08:00:00Z"), sentAt: at("2026-11-12T08:00:10Z") },
      { kind: "claim", status: "pended", patientNationalId: "1000000001", insurerId: "payer-b", claim: claim("99213"), totalMinor: 1_000, createdAt: at("2026-11-13T08:00:00Z"), sentAt: at("2026-11-13T08:00:10Z") },
      { kind: "claim", status: "draft", patientNationalId: "1000000001", insurerId: "payer-a", claim: claim("99213"), totalMinor: 1_000, createdAt: at("2026-11-14T08:00:00Z") },
    ]);
    const after = await kpis(db, range);
    expect(after.current).toMatchObject({ submitted: 7, adjudicated: 4, outstanding: 2 });
    expect((await kpis(db, { ...range, insurerId: "payer-b" })).current).toMatchObject({ submitted: 4, adjudicated: 2, approved: 1, denied: 1, outstanding: 1 });
  });

  it("sums money per insurer exactly (adjudicated claims in the range only)", async () => {
    expect(await totalsByInsurer(database.db, range)).toEqual([
      { key: "payer-a", count: 2, submittedMinor: "61000", eligibleMinor: "61000", benefitMinor: "23800", copayMinor: "37200" },
      { key: "payer-b", count: 2, submittedMinor: "12002", eligibleMinor: "1", benefitMinor: "1", copayMinor: "0" },
    ]);
    expect(await totalsByInsurer(database.db, { ...range, insurerId: "payer-b" })).toHaveLength(1);
  });

  it("sums per benefit category of the first item", async () => {
    const rows = await totalsByCategory(database.db, range);
    expect(rows.map((r) => [r.key, r.count, r.submittedMinor, r.benefitMinor])).toEqual([
      ["4", 1, "36000", "3800"],
      ["3", 2, "25001", "20001"],
      ["5", 1, "12001", "0"],
    ]);
  });

  it("computes prior-authorization rates, ranked reasons, the median and the trend", async () => {
    expect(await authorizationRates(database.db, range)).toEqual([
      { key: "payer-a", decided: 3, approved: 1, partial: 1, denied: 1 },
      { key: "payer-b", decided: 1, approved: 1, partial: 0, denied: 0 },
    ]);
    expect(await rejectionReasons(database.db, range)).toEqual([
      // Per kind: a claim and an authorization read their status in their own words (statusWords).
      { kind: "claim", status: "denied", reason: "Not covered", count: 1 },
      { kind: "claim", status: "partial", reason: "Partly covered", count: 1 },
      { kind: "claim", status: "rejected", reason: "ERR-003", count: 1 },
      { kind: "preauthorization", status: "denied", reason: "Not covered", count: 1 },
      { kind: "preauthorization", status: "partial", reason: "Partly covered", count: 1 },
    ]);
    // Claims decided after 300, 600, 1200, 3600 s: the median lies halfway between 600 and 1200
    // (read from the 5 % buckets of the decision-time histogram: within 5 % of 900 s).
    const median = await medianDecisionSeconds(database.db, range);
    expect(median.count).toBe(4);
    expect(Math.abs(median.median! - 900)).toBeLessThanOrEqual(45);
    expect((await trend(database.db, range)).map((r) => [r.period, r.count, r.submittedMinor])).toEqual([
      ["2026-11-01", 1, "1"],
      ["2026-11-05", 1, "25000"],
      ["2026-11-06", 1, "36000"],
      ["2026-11-10", 1, "12001"],
    ]);
    expect((await trend(database.db, { ...range, bucket: "week" })).map((r) => [r.period, r.count])).toEqual([
      ["2026-10-26", 1],
      ["2026-11-02", 2],
      ["2026-11-09", 1],
    ]);
    // All insurers read one row per clinic day ('clinic-day-all'), one insurer its own rows (decisions 100, 107): summed over
    // the insurers, the per-insurer trends give the all-insurer trend, day by day.
    const insurers = [...new Set((await totalsByInsurer(database.db, range)).map((r) => r.key))];
    expect(insurers.length).toBeGreaterThan(1);
    const summed = new Map<string, number>();
    for (const insurerId of insurers) {
      for (const r of await trend(database.db, { ...range, insurerId })) summed.set(r.period, (summed.get(r.period) ?? 0) + r.count);
    }
    expect([...summed].sort()).toEqual((await trend(database.db, range)).map((r) => [r.period, r.count]));
  });

  it("keeps the rollup right as statuses change: queued → sent → complete, rejected, resubmitted, deleted", async () => {
    const db = database.db;
    const created = "2026-11-20T10:00:00Z";
    const [g] = await insertSubmissions(db, { kind: "claim", status: "draft", patientNationalId: "1000000001", insurerId: "payer-c", claim: claim("99213"), totalMinor: 10_000, createdAt: at(created) });
    await patchSubmission(db, g!.id, { status: "queued" });
    await patchSubmission(db, g!.id, { status: "sent", sentAt: at(created, 5) });
    expect((await totalsByInsurer(db, { ...range, insurerId: "payer-c" }))).toEqual([]);
    await patchSubmission(db, g!.id, { status: "complete", decidedAt: at(created, 65), response: response({ submitted: "100.00", eligible: "90.00", copay: "9.00", benefit: "81.00", share: "10.35" }) });
    // The patient share as the payer states it (copay 9.00 plus its VAT), not the copay (decision 098).
    expect(await totalsByInsurer(db, { ...range, insurerId: "payer-c" })).toEqual([
      { key: "payer-c", count: 1, submittedMinor: "10000", eligibleMinor: "9000", benefitMinor: "8100", copayMinor: "1035" },
    ]);
    // Rejected, then fixed and resubmitted as a new submission that completes.
    const [r] = await insertSubmissions(db, { kind: "claim", status: "queued", patientNationalId: "1000000001", insurerId: "payer-c", claim: claim("71046"), totalMinor: 7_000, createdAt: at(created) });
    await patchSubmission(db, r!.id, { status: "rejected", errors: [{ code: "ERR-001", status: 400 }] });
    await insertSubmissions(db, {
      ...decided("claim", "payer-c", "71046", created, "complete", 7_000, { submitted: "70.00", eligible: "70.00", copay: "7.00", benefit: "63.00" }, 120),
      replacesId: r!.id,
    });
    const c = await totalsByInsurer(db, { ...range, insurerId: "payer-c" });
    expect(c).toEqual([{ key: "payer-c", count: 2, submittedMinor: "17000", eligibleMinor: "16000", benefitMinor: "14400", copayMinor: "1735" }]);
    expect(await rejectionReasons(db, { ...range, insurerId: "payer-c" })).toEqual([{ kind: "claim", status: "rejected", reason: "ERR-001", count: 1 }]);
    const since = new Date("2026-11-01T00:00:00Z");
    expect((await statusCounts(db, since)).filter((s) => s.kind === "claim" && s.status === "complete")[0]?.count).toBe(3);
    // A bulk update of unrelated columns (the outbox lease) changes nothing.
    const before = await database.query(KEPT);
    await patchEverySubmission(db, { leaseOwner: "w1", updatedAt: new Date() });
    expect(await database.query(KEPT)).toEqual(before);
    await deleteSubmissions(db, [g!.id]);
    expect(await database.query(KEPT)).toEqual(await database.query(RECOMPUTE));
  });

  it("builds tables whose CSV has exactly the cells shown", async () => {
    const data = await dashboardData(database.db, range);
    const t = (key: string) => key;
    for (const name of ["insurers", "categories", "authorizations", "reasons", "trend", "timing"] as const) {
      const table = buildTable(name, data, { t, words: t, locale: "en", insurerName: (id) => id.toUpperCase() });
      const csv = toCsv(table);
      const lines = csv.slice(1).trimEnd().split("\r\n");
      expect(lines.length).toBe(table.rows.length + 1);
      expect(table.data.map((r) => r.length)).toEqual(table.rows.map((r) => r.length));
      const parsed = lines.map((line) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1]!.replace(/^"|"$/g, "").replace(/""/g, '"')));
      const withCurrency = (row: string[], value: string) => (table.currency ? [...row, value] : row);
      expect(parsed).toEqual([withCurrency(table.columns, "currency"), ...table.data.map((r) => withCurrency(r, table.currency!))]);
    }
    const insurers = buildTable("insurers", data, { t, words: t, locale: "en", insurerName: (id) => id });
    expect(insurers.rows[0]).toEqual(["payer-a", "2", "SAR\u00a0610.00", "SAR\u00a0610.00", "SAR\u00a0238.00", "SAR\u00a0372.00"]);
    expect(insurers.data[0]).toEqual(["payer-a", "2", "610.00", "610.00", "238.00", "372.00"]);
    expect(toCsv(insurers).split("\r\n")[1]).toBe("payer-a,2,610.00,610.00,238.00,372.00,SAR");
    const rates = buildTable("authorizations", data, { t, words: t, locale: "en", insurerName: (id) => id });
    expect(rates.rows.at(-1)).toEqual(["allInsurers", "4", "50.0%", "25.0%", "25.0%"]);
    expect(rates.data.at(-1)).toEqual(["allInsurers", "4", "0.5000", "0.2500", "0.2500"]);
  });
});

import { PLATFORM_CURRENCY } from "@/lib/fhir";
import { classifyReason, familyName, reasonLabel, reasonWithCode } from "@/lib/denials";
import type { Db } from "@/lib/db";
import { reasonCodesCaught } from "@/lib/scrubber";
import { denialBreakdown, denialTrend, scrubberCatchShare, topFixableReasons, type CatchShare, type DenialDimension, type DenialRow, type DenialTrendRow } from "./denials";
import { formatCount, formatMoney, formatRate, minorToDecimal } from "./format";
import type { DashboardRange } from "./range";
import type { TableContext, TableModel } from "./tables";

/*
 * The denial section's tables (docs/decisions/077): rows as shown, data as values for the CSV
 * (decision 038), the chart's numbers, and for the top fixable reasons a link to their claims.
 */

export const DENIAL_TABLES = ["denialFamilies", "denialFixable", "denialScrubber", "denialReasons", "denialInsurers", "denialServices", "denialPractitioners", "denialTrend"] as const;
export type DenialTableName = (typeof DENIAL_TABLES)[number];

export function isDenialTable(name: string): name is DenialTableName {
  return (DENIAL_TABLES as readonly string[]).includes(name);
}

const DIMENSION: Record<Exclude<DenialTableName, "denialTrend" | "denialFixable" | "denialScrubber">, DenialDimension> = {
  denialFamilies: "family",
  denialReasons: "reason",
  denialInsurers: "insurer",
  denialServices: "service",
  denialPractitioners: "practitioner",
};

export interface DenialTableData {
  rows: DenialRow[];
  trend: DenialTrendRow[];
  /** denialScrubber: the lines the scrubber's rules would have caught, and the rest. */
  catchShare?: CatchShare;
}

export async function loadDenialTable(name: DenialTableName, db: Db, range: DashboardRange): Promise<DenialTableData> {
  if (name === "denialTrend") return { rows: [], trend: await denialTrend(db, range) };
  if (name === "denialFixable") return { rows: await topFixableReasons(db, range), trend: [] };
  // The rule set in force for the insurer chosen (the base set over all insurers).
  if (name === "denialScrubber") return { rows: [], trend: [], catchShare: await scrubberCatchShare(db, range, [...reasonCodesCaught(range.insurerId).keys()]) };
  return { rows: await denialBreakdown(db, range, DIMENSION[name]), trend: [] };
}

/** The claims list filtered to the claims with a line denied or cut for `reason` in the range. */
export function reasonClaimsHref(reason: string, range: Pick<DashboardRange, "from" | "to" | "insurerId">): string {
  const p = new URLSearchParams({ reason, from: range.from, to: range.to });
  if (range.insurerId) p.set("insurer", range.insurerId);
  return `/claims?${p.toString()}`;
}

const forChart = (minor: string) => Number(minor) / 100;

export function buildDenialTable(name: DenialTableName, data: DenialTableData, ctx: TableContext): TableModel {
  const { t, locale, range } = ctx;
  const family = (code: string) => familyName(code, locale) ?? t("denials.unclassified");
  // Words in the page's language with the code beside (an unknown code is shown as given).
  const reason = (code: string) => (code ? reasonWithCode(code, locale) : t("denials.noReason"));
  // In a table whose next column is the code, the words alone.
  const reasonWords = (code: string) => (code ? reasonLabel(code, locale).text : t("denials.noReason"));
  const label = (r: DenialRow): string => {
    switch (name) {
      case "denialFamilies":
        return family(r.key);
      case "denialReasons":
      case "denialFixable":
        return reason(r.key);
      case "denialInsurers":
        return r.key ? ctx.insurerName(r.key) : t("denials.noInsurer");
      case "denialServices":
        return r.key || t("denials.noService");
      default:
        return r.key || t("denials.noPractitioner");
    }
  };
  if (name === "denialTrend") {
    return {
      name,
      textColumns: 1,
      columns: [t("columns.period"), t("denials.columns.lines"), t("denials.columns.rejected"), t("denials.columns.reduced")],
      rows: data.trend.map((r) => [r.period, formatCount(r.lines, locale), formatMoney(r.rejectedMinor, locale), formatMoney(r.reducedMinor, locale)]),
      data: data.trend.map((r) => [r.period, String(r.lines), minorToDecimal(r.rejectedMinor), minorToDecimal(r.reducedMinor)]),
      currency: PLATFORM_CURRENCY,
      chart: data.trend.map((r) => {
        const total = (BigInt(r.rejectedMinor) + BigInt(r.reducedMinor)).toString();
        return { label: r.period, value: forChart(total), display: formatMoney(total, locale) };
      }),
    };
  }
  if (name === "denialScrubber") {
    const share = data.catchShare ?? { caught: { lines: 0, atStakeMinor: "0" }, missed: { lines: 0, atStakeMinor: "0" } };
    const lines = share.caught.lines + share.missed.lines;
    const stake = BigInt(share.caught.atStakeMinor) + BigInt(share.missed.atStakeMinor);
    // Money shares in basis points of the total, exactly (bigint), for formatRate.
    const moneyRate = (minor: string) => (stake === BigInt(0) ? 0 : Number((BigInt(minor) * BigInt(10_000)) / stake));
    const parts = [
      { label: t("denials.scrubber.caught"), ...share.caught },
      { label: t("denials.scrubber.missed"), ...share.missed },
    ];
    return {
      name,
      textColumns: 1,
      columns: [t("denials.columns.scrubber"), t("denials.columns.lines"), t("denials.columns.lineShare"), t("denials.columns.atStake"), t("denials.columns.moneyShare")],
      rows: lines === 0 ? [] : parts.map((p) => [p.label, formatCount(p.lines, locale), formatRate(p.lines, lines, locale), formatMoney(p.atStakeMinor, locale), formatRate(moneyRate(p.atStakeMinor), 10_000, locale)]),
      data: lines === 0 ? [] : parts.map((p) => [p.label, String(p.lines), (p.lines / lines).toFixed(4), minorToDecimal(p.atStakeMinor), (moneyRate(p.atStakeMinor) / 10_000).toFixed(4)]),
      currency: PLATFORM_CURRENCY,
      chart: lines === 0 ? [] : parts.map((p) => ({ label: p.label, value: forChart(p.atStakeMinor), display: formatMoney(p.atStakeMinor, locale) })),
    };
  }
  // Reasons show their code and family too (an unknown payer code reads as given, family unclassified).
  const withReason = name === "denialReasons" || name === "denialFixable";
  const columns = [
    withReason ? t("denials.columns.reason") : t(`denials.columns.${DIMENSION[name as keyof typeof DIMENSION] ?? "reason"}`),
    ...(withReason ? [t("denials.columns.code"), t("denials.columns.family")] : []),
    t("denials.columns.lines"),
    t("denials.columns.rejected"),
    t("denials.columns.reduced"),
    t("denials.columns.atStake"),
  ];
  const textColumns = withReason ? 3 : 1;
  const lead = (r: DenialRow) => (withReason ? [reasonWords(r.key), r.key, family(r.family || classifyReason(r.key).family || "")] : [label(r)]);
  return {
    name,
    textColumns,
    columns,
    rows: data.rows.map((r) => [...lead(r), formatCount(r.lines, locale), formatMoney(r.rejectedMinor, locale), formatMoney(r.reducedMinor, locale), formatMoney(r.atStakeMinor, locale)]),
    data: data.rows.map((r) => [...lead(r), String(r.lines), minorToDecimal(r.rejectedMinor), minorToDecimal(r.reducedMinor), minorToDecimal(r.atStakeMinor)]),
    currency: PLATFORM_CURRENCY,
    chart: data.rows.map((r) => ({ label: label(r), value: forChart(r.atStakeMinor), display: formatMoney(r.atStakeMinor, locale) })),
    ...(name === "denialFixable" && range ? { links: data.rows.map((r) => reasonClaimsHref(r.key, range)) } : {}),
  };
}

import { csvDocument } from "@/lib/csv";
import { BENEFIT_CATEGORIES, isBenefitCategoryCode, PLATFORM_CURRENCY } from "@/lib/fhir";
import { formatCount, formatDuration, formatMoney, formatRate, minorToDecimal } from "./format";
import type { Db, SubmissionStatus } from "@/lib/db";
import { platformReasonWords, platformWordsLine, statusLabel } from "@/lib/i18n";
import {
  authorizationRates,
  medianDecisionSeconds,
  rejectionReasons,
  totalsByCategory,
  totalsByInsurer,
  trend,
  type DashboardData,
  type TotalsRow,
} from "./queries";
import type { DashboardRange } from "./range";
import { buildDenialTable, DENIAL_TABLES, isDenialTable, loadDenialTable, type DenialTableData } from "./denial-tables";

/*
 * One model per dashboard table: the page renders it and the CSV export serializes the very same
 * cells, so the download always matches what is on screen.
 */

export const TABLES = ["insurers", "categories", "authorizations", "reasons", "trend", "timing", ...DENIAL_TABLES] as const;
export type TableName = (typeof TABLES)[number];

export interface TableModel {
  name: TableName;
  columns: string[];
  /** How many leading columns hold text (labels); the rest are numbers, aligned to the end. */
  textColumns: number;
  rows: string[][];
  /**
   * The same cells as data, for the CSV and the cells' `data-value`: counts as integers, money as
   * plain decimals (its currency in a column of its own), rates as fractions, durations in seconds,
   * days as ISO dates. Text columns are as shown.
   */
  data: string[][];
  /** Set when the table holds money: the CSV adds a currency column with it. */
  currency?: string;
  /** Numbers behind the chart (same order as rows), with the value as shown at the bar's end. */
  chart?: { label: string; value: number; display: string }[];
  /** Where each row leads (same order as rows), e.g. the claims of a denial reason. */
  links?: string[];
}

export type Translate = (key: string, values?: Record<string, string | number>) => string;

export interface TableContext {
  t: Translate;
  /** The `statusWords` translator: statuses read as on every other screen (lib/i18n/status-words.ts). */
  words: Translate;
  locale: string;
  insurerName: (id: string) => string;
  /** The range shown, for tables whose rows link to the claims behind them. */
  range?: DashboardRange;
}

/** What a table is built from: the dashboard's data, or a denial table's (docs/decisions/077). */
export type TableData = DashboardData & { denial?: DenialTableData };

const moneyColumns = (t: Translate) => [t("columns.count"), t("columns.submitted"), t("columns.eligible"), t("columns.benefit"), t("columns.patientShare")];

function moneyData(r: TotalsRow | DashboardData["trend"][number]): string[] {
  return [String(r.count), minorToDecimal(r.submittedMinor), minorToDecimal(r.eligibleMinor), minorToDecimal(r.benefitMinor), minorToDecimal(r.copayMinor)];
}

/** A share as a plain fraction with four decimals ("" when there is nothing to divide by). */
const rateData = (part: number, whole: number) => (whole ? (part / whole).toFixed(4) : "");

function moneyCells(r: TotalsRow | DashboardData["trend"][number], locale: string): string[] {
  return [
    formatCount(r.count, locale),
    formatMoney(r.submittedMinor, locale),
    formatMoney(r.eligibleMinor, locale),
    formatMoney(r.benefitMinor, locale),
    formatMoney(r.copayMinor, locale),
  ];
}

/** Minor units as a number for bar lengths only (never for money shown as text). */
const forChart = (minor: string) => Number(minor) / 100;

export function categoryName(code: string, locale: string, t: Translate): string {
  if (!code) return t("unknownCategory");
  if (isBenefitCategoryCode(code)) return `${code} · ${BENEFIT_CATEGORIES[code][locale === "ar" ? "ar" : "en"]}`;
  return code;
}

/** Loads only what one table needs (each widget streams on its own). */
export async function loadTable(name: TableName, db: Db, range: DashboardRange): Promise<TableData> {
  const data: TableData = { byInsurer: [], byCategory: [], rates: [], reasons: [], median: { median: null, count: 0 }, trend: [] };
  if (isDenialTable(name)) data.denial = await loadDenialTable(name, db, range);
  if (name === "insurers") data.byInsurer = await totalsByInsurer(db, range);
  if (name === "categories") data.byCategory = await totalsByCategory(db, range);
  if (name === "authorizations") data.rates = await authorizationRates(db, range);
  if (name === "reasons") data.reasons = await rejectionReasons(db, range);
  if (name === "trend") data.trend = await trend(db, range);
  if (name === "timing") data.median = await medianDecisionSeconds(db, range);
  return data;
}

export function buildTable(name: TableName, data: TableData, ctx: TableContext): TableModel {
  const { t, locale } = ctx;
  const reasonLine = (reason: string) => platformWordsLine(platformReasonWords(reason, locale), locale);
  if (isDenialTable(name)) return buildDenialTable(name, data.denial ?? { rows: [], trend: [] }, ctx);
  switch (name) {
    case "insurers":
      return {
        name,
        textColumns: 1,
        columns: [t("columns.insurer"), ...moneyColumns(t)],
        rows: data.byInsurer.map((r) => [ctx.insurerName(r.key), ...moneyCells(r, locale)]),
        data: data.byInsurer.map((r) => [ctx.insurerName(r.key), ...moneyData(r)]),
        currency: PLATFORM_CURRENCY,
        chart: data.byInsurer.map((r) => ({ label: ctx.insurerName(r.key), value: forChart(r.submittedMinor), display: formatMoney(r.submittedMinor, locale) })),
      };
    case "categories":
      return {
        name,
        textColumns: 1,
        columns: [t("columns.category"), ...moneyColumns(t)],
        rows: data.byCategory.map((r) => [categoryName(r.key, locale, t), ...moneyCells(r, locale)]),
        data: data.byCategory.map((r) => [categoryName(r.key, locale, t), ...moneyData(r)]),
        currency: PLATFORM_CURRENCY,
        chart: data.byCategory.map((r) => ({ label: categoryName(r.key, locale, t), value: forChart(r.submittedMinor), display: formatMoney(r.submittedMinor, locale) })),
      };
    case "authorizations": {
      const total = data.rates.reduce(
        (a, r) => ({ key: "", decided: a.decided + r.decided, approved: a.approved + r.approved, partial: a.partial + r.partial, denied: a.denied + r.denied }),
        { key: "", decided: 0, approved: 0, partial: 0, denied: 0 },
      );
      const rows = data.rates.length ? [...data.rates, total] : [];
      return {
        name,
        textColumns: 1,
        columns: [t("columns.insurer"), t("columns.decided"), t("columns.approvalRate"), t("columns.partialRate"), t("columns.denialRate")],
        rows: rows.map((r) => [
          r === total ? t("allInsurers") : ctx.insurerName(r.key),
          formatCount(r.decided, locale),
          formatRate(r.approved, r.decided, locale),
          formatRate(r.partial, r.decided, locale),
          formatRate(r.denied, r.decided, locale),
        ]),
        data: rows.map((r) => [
          r === total ? t("allInsurers") : ctx.insurerName(r.key),
          String(r.decided),
          rateData(r.approved, r.decided),
          rateData(r.partial, r.decided),
          rateData(r.denied, r.decided),
        ]),
        chart: data.rates.map((r) => ({ label: ctx.insurerName(r.key), value: r.decided ? (100 * r.approved) / r.decided : 0, display: formatRate(r.approved, r.decided, locale) })),
      };
    }
    case "reasons":
      return {
        name,
        columns: [t("columns.reason"), t("columns.status"), t("columns.count"), t("columns.rank")],
        textColumns: 2,
        // In the page's language with the code beside; a payer's own text marked as theirs (decision 122).
        rows: data.reasons.map((r, i) => [reasonLine(r.reason), ctx.words(statusLabel(r.kind, r.status as SubmissionStatus).key), formatCount(r.count, locale), formatCount(i + 1, locale)]),
        data: data.reasons.map((r, i) => [reasonLine(r.reason), ctx.words(statusLabel(r.kind, r.status as SubmissionStatus).key), String(r.count), String(i + 1)]),
        chart: data.reasons.map((r) => ({ label: reasonLine(r.reason), value: r.count, display: formatCount(r.count, locale) })),
      };
    case "trend":
      return {
        name,
        textColumns: 1,
        columns: [t("columns.period"), ...moneyColumns(t)],
        rows: data.trend.map((r) => [r.period, ...moneyCells(r, locale)]),
        data: data.trend.map((r) => [r.period, ...moneyData(r)]),
        currency: PLATFORM_CURRENCY,
        chart: data.trend.map((r) => ({ label: r.period, value: forChart(r.submittedMinor), display: formatMoney(r.submittedMinor, locale) })),
      };
    case "timing":
      return {
        name,
        columns: [t("columns.decidedClaims"), t("columns.medianDecision")],
        textColumns: 0,
        rows: [[formatCount(data.median.count, locale), formatDuration(data.median.median, locale)]],
        data: [[String(data.median.count), data.median.median == null ? "" : String(data.median.median)]],
      };
  }
}

/**
 * The table as CSV (lib/csv: RFC 4180, BOM, formula-like cells neutralised). The cells are the
 * table's data (plain decimals, integers, ISO dates), not its formatted text, so a spreadsheet can
 * add them; money tables end with a currency column.
 */
export function toCsv(table: Pick<TableModel, "columns" | "data" | "currency"> & { currencyLabel?: string }): string {
  const withCurrency = (row: string[], value: string) => (table.currency ? [...row, value] : row);
  return csvDocument([withCurrency(table.columns, table.currencyLabel ?? "currency"), ...table.data.map((row) => withCurrency(row, table.currency!))]);
}

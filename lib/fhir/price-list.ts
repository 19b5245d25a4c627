import { CODE_SYSTEMS } from "./systems";
import { SYSTEMS } from "./nphies/terminology";

/**
 * A payer's price list (its contract with the clinic) as a CSV file: ONE format, read by the
 * portal's contract import (lib/contracts) and by the sandbox, which adjudicates with the same
 * file (docs/decisions/089-payer-contracts.md). Pure: text in, rows and line errors out.
 *
 * Columns (header row required, order free, names case-insensitive):
 *   insurer         the payer's Organization id (`payer-rimal`)
 *   network         the payer's provider network the price applies to; empty = every network
 *   class           the coverage class (plan) the price applies to; empty = every class
 *   system          `cpt`, or an exchange product system key (`services`, `procedures`, …)
 *   code            the service code
 *   price           the contracted unit price in riyals, at most two decimals (`250` or `250.50`)
 *   effective_from  first day the price applies (YYYY-MM-DD)
 *   effective_to    last day (YYYY-MM-DD); empty = until a later version replaces it
 *   package         `yes` when the code is a package; its `includes` are paid by it
 *   includes        package contents: codes of the same system separated by `;`
 *   authorization   `yes` when the payer wants a prior authorization for the code
 */

export const PRICE_LIST_COLUMNS = ["insurer", "network", "class", "system", "code", "price", "effective_from", "effective_to", "package", "includes", "authorization"] as const;
const REQUIRED_COLUMNS = ["insurer", "system", "code", "price", "effective_from"] as const;

/** The system keys a price list may name, with their canonical URL. */
export const PRICE_LIST_SYSTEMS: Readonly<Record<string, string>> = {
  cpt: CODE_SYSTEMS.cpt,
  services: SYSTEMS.services,
  procedures: SYSTEMS.procedures,
  imaging: SYSTEMS.imaging,
  laboratory: SYSTEMS.laboratory,
  oralHealthOp: SYSTEMS.oralHealthOp,
  oralHealthIp: SYSTEMS.oralHealthIp,
  medicationCodes: SYSTEMS.medicationCodes,
  medicalDevices: SYSTEMS.medicalDevices,
  scientificCodes: SYSTEMS.scientificCodes,
  transportation: SYSTEMS.transportation,
  mohCategory: SYSTEMS.mohCategory,
  visionProduct: SYSTEMS.visionProduct,
};

/** The system key of a canonical URL (`cpt` for CPT), or undefined. */
export function priceListSystemKey(url: string | undefined): string | undefined {
  return Object.entries(PRICE_LIST_SYSTEMS).find(([, u]) => u === url)?.[0];
}

/** The system key of a canonical URL or of a key itself (`cpt`, `services`, …), or undefined when no price list can name it. */
export function priceListKeyOf(system: string | undefined): string | undefined {
  return system !== undefined && Object.prototype.hasOwnProperty.call(PRICE_LIST_SYSTEMS, system) ? system : priceListSystemKey(system);
}

export interface PriceListRow {
  /** The CSV line (1 = the header). */
  line: number;
  insurerId: string;
  network: string;
  coverageClass: string;
  /** The system key (`cpt`, `services`, …). */
  system: string;
  code: string;
  priceMinor: number;
  effectiveFrom: string;
  effectiveTo: string | null;
  isPackage: boolean;
  includes: string[];
  authorizationRequired: boolean;
}

export interface PriceListLineError {
  line: number;
  /** The column concerned, or `row` / `header`. */
  column: string;
  /** A stable key (words in lib/i18n under `contracts.errors`). */
  problem: "header_missing" | "column_missing" | "column_unknown" | "field_count" | "required" | "system_unknown" | "price_invalid" | "date_invalid" | "period_inverted" | "flag_invalid" | "includes_without_package" | "duplicate" | "overlap" | "too_many_rows";
  /** The offending value, shortened (never patient data: a price list has none). */
  value?: string;
}

export interface PriceListParse {
  rows: PriceListRow[];
  errors: PriceListLineError[];
}

/** At most this many data lines per file. */
export const MAX_PRICE_LIST_ROWS = 20_000;

/** One CSV line → fields (RFC 4180 quotes: "a,b" and "" inside quotes). */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      out.push(field);
      field = "";
    } else field += c;
  }
  out.push(field);
  return out.map((f) => f.trim());
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function isDay(v: string): boolean {
  if (!DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** "250", "250.5", "250.50" → halalas; undefined otherwise. */
export function parseRiyals(v: string): number | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(v);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

function flag(v: string): boolean | undefined {
  const s = v.toLowerCase();
  if (s === "" || s === "no" || s === "false" || s === "0") return false;
  if (s === "yes" || s === "true" || s === "1") return true;
  return undefined;
}

const short = (v: string) => (v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** The key a price is unique by (one price per payer, network, class, code and start date). */
export const priceRowKey = (r: Pick<PriceListRow, "insurerId" | "network" | "coverageClass" | "system" | "code">): string =>
  [r.insurerId, r.network, r.coverageClass, r.system, r.code].join("|");

/** Parses a price list. Every bad line is reported (by line and column); good lines are returned. */
export function parsePriceListCsv(text: string): PriceListParse {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const errors: PriceListLineError[] = [];
  const rows: PriceListRow[] = [];
  const headerIndex = lines.findIndex((l) => l.trim() !== "" && !l.trimStart().startsWith("#"));
  if (headerIndex < 0) return { rows, errors: [{ line: 1, column: "header", problem: "header_missing" }] };
  const header = splitCsvLine(lines[headerIndex]!).map((h) => h.toLowerCase());
  for (const h of header) if (!(PRICE_LIST_COLUMNS as readonly string[]).includes(h)) errors.push({ line: headerIndex + 1, column: h || "header", problem: "column_unknown", value: short(h) });
  for (const c of REQUIRED_COLUMNS) if (!header.includes(c)) errors.push({ line: headerIndex + 1, column: c, problem: "column_missing" });
  if (errors.length > 0) return { rows, errors };

  let dataLines = 0;
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    const line = i + 1;
    if (++dataLines > MAX_PRICE_LIST_ROWS) {
      errors.push({ line, column: "row", problem: "too_many_rows" });
      break;
    }
    const fields = splitCsvLine(raw);
    if (fields.length !== header.length) {
      errors.push({ line, column: "row", problem: "field_count", value: String(fields.length) });
      continue;
    }
    const get = (c: string) => fields[header.indexOf(c)] ?? "";
    const lineErrors: PriceListLineError[] = [];
    for (const c of REQUIRED_COLUMNS) if (get(c) === "") lineErrors.push({ line, column: c, problem: "required" });
    const system = get("system");
    if (system && !PRICE_LIST_SYSTEMS[system]) lineErrors.push({ line, column: "system", problem: "system_unknown", value: short(system) });
    const priceMinor = parseRiyals(get("price"));
    if (get("price") && priceMinor === undefined) lineErrors.push({ line, column: "price", problem: "price_invalid", value: short(get("price")) });
    const from = get("effective_from");
    const to = get("effective_to");
    if (from && !isDay(from)) lineErrors.push({ line, column: "effective_from", problem: "date_invalid", value: short(from) });
    if (to && !isDay(to)) lineErrors.push({ line, column: "effective_to", problem: "date_invalid", value: short(to) });
    if (isDay(from) && isDay(to) && to < from) lineErrors.push({ line, column: "effective_to", problem: "period_inverted", value: to });
    const isPackage = flag(get("package"));
    if (isPackage === undefined) lineErrors.push({ line, column: "package", problem: "flag_invalid", value: short(get("package")) });
    const authorization = flag(get("authorization"));
    if (authorization === undefined) lineErrors.push({ line, column: "authorization", problem: "flag_invalid", value: short(get("authorization")) });
    const includes = get("includes").split(";").map((s) => s.trim()).filter(Boolean);
    if (includes.length > 0 && isPackage === false) lineErrors.push({ line, column: "includes", problem: "includes_without_package" });
    if (lineErrors.length > 0) {
      errors.push(...lineErrors);
      continue;
    }
    rows.push({
      line,
      insurerId: get("insurer"),
      network: get("network"),
      coverageClass: get("class"),
      system,
      code: get("code"),
      priceMinor: priceMinor!,
      effectiveFrom: from,
      effectiveTo: to || null,
      isPackage: isPackage!,
      includes,
      authorizationRequired: authorization!,
    });
  }

  // One price per key and day: the same start twice, or two periods that overlap, is an error.
  const byKey = new Map<string, PriceListRow[]>();
  for (const r of rows) byKey.set(priceRowKey(r), [...(byKey.get(priceRowKey(r)) ?? []), r]);
  const bad = new Set<PriceListRow>();
  for (const group of byKey.values()) {
    const sorted = [...group].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
    for (let n = 1; n < sorted.length; n++) {
      const prev = sorted[n - 1]!;
      const cur = sorted[n]!;
      if (cur.effectiveFrom === prev.effectiveFrom) {
        errors.push({ line: cur.line, column: "effective_from", problem: "duplicate", value: `${cur.code} ${cur.effectiveFrom}` });
        bad.add(cur);
      } else if (prev.effectiveTo !== null && prev.effectiveTo >= cur.effectiveFrom) {
        errors.push({ line: cur.line, column: "effective_from", problem: "overlap", value: `${cur.code} ${cur.effectiveFrom}` });
        bad.add(cur);
      }
    }
  }
  errors.sort((a, b) => a.line - b.line);
  return { rows: rows.filter((r) => !bad.has(r)), errors };
}

/** What a price list says for one code, for one coverage, on one day. */
export interface PriceQuery {
  insurerId: string;
  network?: string;
  coverageClass?: string;
  system: string;
  code: string;
  /** The service date (YYYY-MM-DD). */
  date: string;
}

/**
 * The row that prices a service: in force on the date (the latest start wins when an open-ended
 * version is followed by a newer one), the most specific first — class, then network, then the
 * payer's general list.
 */
export function priceFor<R extends Omit<PriceListRow, "line">>(rows: readonly R[], q: PriceQuery): R | undefined {
  const candidates = rows.filter(
    (r) =>
      r.insurerId === q.insurerId &&
      r.system === q.system &&
      r.code === q.code &&
      r.effectiveFrom <= q.date &&
      (r.effectiveTo === null || r.effectiveTo >= q.date) &&
      (r.network === "" || r.network === (q.network ?? "")) &&
      (r.coverageClass === "" || r.coverageClass === (q.coverageClass ?? "")),
  );
  const rank = (r: R) => (r.coverageClass !== "" ? 2 : 0) + (r.network !== "" ? 1 : 0);
  return candidates.sort((a, b) => rank(b) - rank(a) || b.effectiveFrom.localeCompare(a.effectiveFrom))[0];
}

/**
 * Small value readers shared by the answer readers: coded values, money in exact minor units,
 * periods. They take `unknown` (the structure is checked before) and never throw.
 */

export interface CodedView {
  system?: string;
  code?: string;
  display?: string;
  /** CodeableConcept.text */
  text?: string;
}

/** Money: `minor` is exact (integer minor units) whenever the amount has at most two decimals. */
export interface MoneyView {
  /** The amount as given on the wire. */
  value: number;
  /** Exact integer minor units (halalas); absent when the amount has more than two decimals. */
  minor?: number;
  currency?: string;
}

export interface PeriodView {
  start?: string;
  end?: string;
}

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const text = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);
/** A finite number; -0 reads as 0 (JSON cannot keep the sign, so a stored view would differ). */
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? (v === 0 ? 0 : v) : undefined);

/** The first coding of a CodeableConcept (preferring `system` when given), with its text. */
export function readCoded(concept: unknown, preferSystem?: string | readonly string[]): CodedView | undefined {
  if (!isObject(concept)) return undefined;
  const codings = list(concept.coding);
  const prefer = typeof preferSystem === "string" ? [preferSystem] : (preferSystem ?? []);
  const coding = codings.find((c) => prefer.includes(String(c.system))) ?? codings[0];
  const view: CodedView = {};
  if (coding) {
    if (text(coding.system)) view.system = coding.system as string;
    if (text(coding.code)) view.code = coding.code as string;
    if (text(coding.display)) view.display = coding.display as string;
  }
  if (text(concept.text)) view.text = concept.text as string;
  return view.code || view.text || view.display ? view : undefined;
}

/** A Coding (not a CodeableConcept). */
export function readCoding(coding: unknown): CodedView | undefined {
  return isObject(coding) ? readCoded({ coding: [coding] }) : undefined;
}

/** True when the concept carries `code` in one of `systems` (any system when none is given). */
export function hasCode(concept: unknown, code: string, systems?: readonly string[]): boolean {
  if (!isObject(concept)) return false;
  return list(concept.coding).some((c) => c.code === code && (!systems || systems.includes(String(c.system))));
}

/** Decimal → exact minor units, or undefined when it has more than two decimals (or is too large). */
export function exactMinor(value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const scaled = value * 100;
  const rounded = Math.round(scaled);
  // Binary floating point: 22981.65 * 100 is 2298164.9999999995. Allow that noise, nothing more.
  if (Math.abs(scaled - rounded) > Math.max(1e-6, Math.abs(scaled) * 1e-12)) return undefined;
  if (!Number.isSafeInteger(rounded)) return undefined;
  return rounded === 0 ? 0 : rounded;
}

export function readMoney(value: unknown): MoneyView | undefined {
  if (!isObject(value)) return undefined;
  const amount = num(value.value);
  if (amount === undefined) return undefined;
  const view: MoneyView = { value: amount };
  const minor = exactMinor(amount);
  if (minor !== undefined) view.minor = minor;
  if (text(value.currency)) view.currency = value.currency as string;
  return view;
}

export function readPeriod(value: unknown): PeriodView | undefined {
  if (!isObject(value)) return undefined;
  const view: PeriodView = {};
  if (text(value.start)) view.start = value.start as string;
  if (text(value.end)) view.end = value.end as string;
  return view.start || view.end ? view : undefined;
}

/** Adds money of one currency exactly; undefined when a term is not exact or currencies differ. */
export function sumMoney(terms: (MoneyView | undefined)[]): MoneyView | undefined {
  const present = terms.filter((t): t is MoneyView => t !== undefined);
  if (present.length === 0) return undefined;
  const currency = present[0]!.currency;
  let minor = 0;
  for (const t of present) {
    if (t.minor === undefined || t.currency !== currency) return undefined;
    minor += t.minor;
  }
  return { value: minor / 100, minor, ...(currency ? { currency } : {}) };
}

export { formatMoney, minorToDecimal } from "@/lib/money";

export function formatCount(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** A share as a percentage with one decimal; "—" when there is nothing to divide by. */
export function formatRate(part: number, whole: number, locale: string): string {
  if (!whole) return "—";
  return new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(part / whole);
}

/** Seconds as the largest sensible units: "2 d 4 h", "3 h 12 min", "45 s". */
export function formatDuration(seconds: number | null, locale: string): string {
  if (seconds == null) return "—";
  const unit = (value: number, u: "day" | "hour" | "minute" | "second") =>
    new Intl.NumberFormat(locale, { style: "unit", unit: u, unitDisplay: "narrow" }).format(value);
  const d = Math.floor(seconds / 86_400);
  const hh = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d) return `${unit(d, "day")} ${unit(hh, "hour")}`;
  if (hh) return `${unit(hh, "hour")} ${unit(m, "minute")}`;
  if (m) return `${unit(m, "minute")} ${unit(s, "second")}`;
  return unit(s, "second");
}

import type { Money } from "@medplum/fhirtypes";
import { PLATFORM_CURRENCY } from "./systems";

/**
 * Money on the wire is a JSON number of riyals; everywhere else it is an integer number of
 * halalas (minor units, 1 SAR = 100 halalas), so sums are exact. Convert at the edges only.
 */

/**
 * Riyals (wire number) → halalas. Returns undefined when the value is not finite, negative, or has
 * more than two decimals (after tolerating binary floating-point noise such as 0.1 + 0.2).
 */
export function toMinorUnits(value: number): number | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const scaled = value * 100;
  const rounded = Math.round(scaled);
  if (Math.abs(scaled - rounded) > 1e-6 || !Number.isSafeInteger(rounded)) return undefined;
  return rounded;
}

/** Halalas → riyals for the wire (exact for every integer below 2^53 / 100). */
export function fromMinorUnits(minor: number): number {
  if (!Number.isSafeInteger(minor)) throw new Error(`not an integer amount of minor units: ${minor}`);
  return Number((minor / 100).toFixed(2));
}

export function money(minor: number, currency: string = PLATFORM_CURRENCY): Money {
  return { value: fromMinorUnits(minor), currency: currency as Money["currency"] };
}

/** Formats halalas as "1,234.50" (no currency symbol; callers add it for their locale). */
export function formatMinorUnits(minor: number): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}

/** Percentage of an amount in minor units, rounded half up to a whole halala. */
export function percentOf(minor: number, percent: number): number {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new Error(`bad percent ${percent}`);
  return Math.floor((minor * percent + 50) / 100);
}

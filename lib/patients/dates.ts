/** Whole years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number];
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** A date-only value as a Date at UTC midnight, to format with `timeZone: "UTC"` (no day shift). */
export function dayAsDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/**
 * How long a newborn is checked and billed under the mother's coverage (guide 6.5; the exchange's
 * rule BV-90023 counts the same way): days 0–30 from birth. From day 31 the baby needs a coverage
 * of its own. Kept here (not imported from the rule module) so browser code can use it; a unit
 * test holds the two equal.
 */
export const NEWBORN_DAYS = 30;

/** Whole days from a birth date to a day (both YYYY-MM-DD); negative before birth. */
export function daysOld(birthDate: string, day: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${birthDate}T00:00:00Z`)) / 86_400_000);
}

/** Whether a newborn may still use the mother's coverage on a day (docs/decisions/110). */
export function underMotherCoverage(birthDate: string, day: string): boolean {
  const age = daysOld(birthDate, day);
  return age >= 0 && age <= NEWBORN_DAYS;
}

/**
 * Whether a coverage's card had expired before a day (both YYYY-MM-DD): its expiry is the last
 * day it covers, so a card expiring on 31 Dec still covers 31 Dec. No expiry known: not expired.
 * Pages ask it with the clinic's today (`clinicToday`), forms with the service date; it only
 * warns — the insurer decides (decision 126).
 */
export function cardExpiredBefore(expiresOn: string | null | undefined, day: string): boolean {
  return !!expiresOn && !!day && expiresOn < day;
}

/**
 * The service day a form's lines name that the card does not reach: the latest line date after the
 * card's expiry, or undefined (no expiry known, no dates, or every date within the card).
 */
export function dayAfterExpiry(expiresOn: string | null | undefined, days: readonly (string | undefined)[]): string | undefined {
  const after = days.filter((d): d is string => !!d && /^\d{4}-\d{2}-\d{2}$/.test(d) && cardExpiredBefore(expiresOn, d)).sort();
  return after.at(-1);
}

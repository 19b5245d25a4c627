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

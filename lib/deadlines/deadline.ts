/**
 * Filing deadlines (docs/decisions/048), pure: a claim must reach the payer within `submissionDays` of its
 * (earliest) service date; a rejected one must be resubmitted within `resubmissionDays` of the
 * rejection; a payer's information request must be answered by its due date. Days are clinic calendar days (YYYY-MM-DD); `daysLeft` 0 = the last day is today,
 * negative = missed. Staff are warned from WARN_DAYS days before.
 */
export const WARN_DAYS = 7;

/** Used for an insurer the administrators have not configured (decision 048). */
export const DEFAULT_WINDOWS: FilingWindows = { submissionDays: 90, resubmissionDays: 30 };

export interface FilingWindows {
  submissionDays: number;
  resubmissionDays: number;
}

/**
 * `information`: a payer's open information request about the claim, due on its own date.
 * `appeal`: a decided claim's denied or cut lines, appealable within the insurer's resubmission
 * window from the decision (docs/decisions/080).
 */
export type DeadlineKind = "submission" | "resubmission" | "information" | "appeal";

export interface Deadline {
  kind: DeadlineKind;
  /** Last day (inclusive). */
  due: string;
  daysLeft: number;
  level: "ok" | "soon" | "overdue";
}

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

export function addDaysTo(day: string, n: number): string {
  return new Date((dayNumber(day) + n) * 86_400_000).toISOString().slice(0, 10);
}

export function deadlineFrom(kind: DeadlineKind, from: string, windowDays: number, today: string): Deadline {
  const due = addDaysTo(from, windowDays);
  const daysLeft = dayNumber(due) - dayNumber(today);
  return { kind, due, daysLeft, level: daysLeft < 0 ? "overdue" : daysLeft <= WARN_DAYS ? "soon" : "ok" };
}

/** A deadline on a given last day (an information request's due date, as a clinic day). */
export function deadlineOn(kind: DeadlineKind, due: string, today: string): Deadline {
  return deadlineFrom(kind, due, 0, today);
}

/** The more urgent of two deadlines (fewer days left). */
export function moreUrgent(a: Deadline | undefined, b: Deadline | undefined): Deadline | undefined {
  if (!a || !b) return a ?? b;
  return b.daysLeft < a.daysLeft ? b : a;
}

/** The earliest valid service date of a Claim's items (YYYY-MM-DD), if any. */
export function earliestServiceDate(claim: unknown): string | undefined {
  const items = (claim as { item?: { servicedDate?: unknown }[] } | null)?.item ?? [];
  const days = items.map((i) => i.servicedDate).filter((d): d is string => typeof d === "string" && /^\d{4}-\d{2}-\d{2}$/.test(d));
  return days.sort()[0];
}

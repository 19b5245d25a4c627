/**
 * Which live-event kinds each server-rendered page depends on (its live stamp, and the events that
 * make the browser look again). Plain data, shared by server pages and their client components.
 */
export const PAGE_LIVE_KINDS = {
  /** A submission's page: its status, timeline notes, the payer's questions, payments. */
  submission: ["submission.status", "submission.note", "information.request", "payment.remittance"],
  /** The work queue: claims changing status. */
  workQueue: ["submission.status"],
  informationRequests: ["information.request"],
  payments: ["payments.remittance"],
  visitRuns: ["visits.run"],
  /** The managers' dashboard: every status change moves its figures. */
  dashboard: ["submission.status"],
} as const satisfies Record<string, readonly string[]>;

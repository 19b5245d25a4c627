/**
 * The cookie a live refresh carries: the key of the audited user view it keeps current
 * (staff-page.ts gives the key; components/query/use-live-query.ts sets the cookie). Shared by the
 * server and the browser (docs/decisions/078).
 */
export const LIVE_VIEW_COOKIE = "cx-live-view";

/** Managers' dashboards: the public face. See README "Dashboards". */
export * from "./format";
export * from "./queries";
export * from "./range";
export * from "./tables";
export { insurerNames } from "./insurers";
export { liveBoardView, type BoardCounts, type FeedItem, type LiveBoardView } from "./live-board";
export { kpis, previousRange, type KpiFigures, type Kpis } from "./kpis";
export * from "./denials";
export { DENIAL_TABLES, isDenialTable, reasonClaimsHref, type DenialTableName } from "./denial-tables";
export { dashboardClock, setDashboardClock } from "./clock";

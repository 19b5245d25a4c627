/** What the browser may import from lib/dashboard (docs/decisions/041-module-entries.md). */
export { liveBoardAction } from "./actions";
export type { BoardCounts, FeedItem, LiveBoardView } from "./live-board";

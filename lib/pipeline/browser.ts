/** What the browser may import from lib/pipeline (docs/decisions/041-module-entries.md). */
export { liveStampAction } from "./actions";
export type { LiveStampQuery } from "./live-stamp";
export { PAGE_LIVE_KINDS } from "./live-kinds";
export type { LiveEvent } from "./live";
export { dismissInboxMessageAction, matchInboxMessageAction, openAdvancedAuthorizationAction } from "./actions";

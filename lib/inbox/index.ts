/**
 * The inbox (docs/decisions/096): every message the exchange sends the clinic, stored whole before it is
 * routed, routed from here (idempotent by message id, retried with back-off, failures kept), and
 * what matches nothing shown to billing. The only reader and writer of `inbox_messages` and
 * `inbox_polls`. It does not know what a message means: lib/pipeline routes (inbound.ts).
 */
export { storeMessages, storePollReply, pendingPollId, noteFetched, forgetMessage, messageIdOf, type IncomingMessage, type StoredMessage } from "./store";
export { routeDue, takeDue, settle, refreshInboxGauge, INBOX_DEFAULTS, type InboxRow, type RouteOutcome, type RouteOptions, type RoutePass } from "./route";
export { listOpenMessages, getInboxMessage, dismissMessage, markMatched, recordRouted, InboxStateError, type InboxListItem } from "./review";
export { summarize, focusOf } from "./summary";
export { INBOX_REASONS, readInboxReason, type InboxReasonKey } from "./reasons";
export { registerAdvancedAuthorizationOpener, advancedAuthorizationOpener, type AdvancedAuthorizationOpener } from "./opener";
export type { InboxSource, InboxStatus, InboxSummary } from "@/lib/db";

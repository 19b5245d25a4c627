/**
 * What the browser may import from lib/claims: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { addWorkNoteAction, assignWorkAction, fileAppealAction, batchProgressAction, claimListAction, copyClaimAction, fixClaimAction, reconcileAction, retryClaimAction, submitSelectedAction } from "./actions";
export type { ClaimListQuery, ClaimListView, ClaimTableRow } from "./list-view";

/** lib/claims: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export type { BatchProgress } from "./batch";
export { CLAIM_SORTS, claimInsurers, countClaimsByStatus, isStatus, listClaims, replacementLinks, workQueue } from "./queries";
export type { ClaimSort } from "./queries";
export type { ReconcileRow } from "./reconcile";
export { draftDuplicates } from "./service";
export { batchProgress } from "./batch";
export { claimAuthorization } from "./queries";
export { claimListView, parseClaimListQuery, type ClaimListQuery, type ClaimListView, type ClaimTableRow } from "./list-view";
export { WORK_QUEUE_CSV_KEYS, addWorkNote, assignWork, compareWork, queueStaff, rankedWorkQueue, scoreOf, workQueueCsv, type AssigneeFilter, type WorkAction, type WorkChange, type WorkItem } from "./work-queue";
export { waitingWork, type WaitingCount, type WaitingWork } from "./waiting";

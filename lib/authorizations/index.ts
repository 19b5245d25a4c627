/** lib/authorizations: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export type { DecisionLine, DecisionView } from "./decision";
export { loadDraftForForm } from "./drafts";
export { cursorParam, getSubmissionView, isSubmissionStatus, listSubmissions, parseCursor } from "./queries";
export { draftFormSchema } from "./schema";
export type { SubmissionFormInput, SubmissionUse } from "./schema";
export { saveDraft, submitForm } from "./service";
export type { Caller, ServiceDeps } from "./service";

/**
 * What the browser may import from lib/authorizations: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { createClaimFromAuthorizationAction, saveDraftAction, searchPatientsForFormAction, submitAction } from "./actions";
export { lineTotalMinor } from "./money";
export { emptyItem } from "./empty-item";

/** The form's schema (and zod), loaded when the form is first used: not in the page's first-load JavaScript. */
export const loadSubmissionFormSchema = () => import("./schema").then((m) => m.submissionFormSchema);

/**
 * What the browser may import from lib/authorizations: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { createClaimFromAuthorizationAction, saveDraftAction, searchPatientsForFormAction, submitAction } from "./actions";
export { lineTotalMinor } from "./money";
export { emptyItem, submissionFormSchema } from "./schema";

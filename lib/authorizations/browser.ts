/**
 * What the browser may import from lib/authorizations: server-action references — never the
 * database (docs/decisions/041-module-entries.md). The form's helpers are lib/submissions/browser.
 */
export { askPayerChangeAction, changeAuthorizationAction, changePayerAuthorizationAction, createClaimFromAuthorizationAction, saveDraftAction, searchPatientsForFormAction, submitAction, visitPrefillAction } from "./actions";

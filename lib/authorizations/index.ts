/**
 * lib/authorizations: the prior-authorization feature's server actions (the form's save and
 * submit, its patient search, a claim from an approved authorization) with their role rules. The
 * submission itself — form, Claim, states, views — is lib/submissions (docs/decisions/062).
 * Other modules import only this file or ./browser (docs/decisions/041-module-entries.md).
 */
export type { ActionResult } from "./actions";
export {
  ADVANCED_AUTHORIZATION_EVENTS,
  advancedAuthorizationInbound,
  carriesAdvancedMark,
  isAdvancedAuthorization,
  recordAdvancedAuthorization,
  reissueReasonOf,
  type AdvancedAuthorizationOutcome,
  type AdvancedSource,
} from "./advanced";
export { CHANGE_TEXT_MAX, askPayerToChange, type ChangeAskDeps, type ChangeAskResult } from "./advanced-change";

/**
 * What the browser may import from lib/auth: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { changeOwnPasswordAction, resetUserPasswordAction, setUserDisabledAction, setUserRolesAction, signInAction, unlockUserAction } from "./actions";
export { PASSWORD_MIN_LENGTH, ROLE_NAMES } from "./account-policy";
export type { ChangePasswordInput, SetRolesInput } from "./account-schemas";
export type { ActionResult as ActionResultOf } from "./staff-action";
export { LIVE_VIEW_COOKIE } from "./live-view";

/** The form's schema (and zod), loaded when the form is first used: not in the page's first-load JavaScript. */
export const loadSignInSchema = () => import("./schemas").then((m) => m.signInSchema);

/** The account forms' schemas (decision 102), loaded like the sign-in form's. */
export const loadChangePasswordSchema = () => import("./account-schemas").then((m) => m.changePasswordSchema);
export const loadSetRolesSchema = () => import("./account-schemas").then((m) => m.setRolesSchema);
export const loadUserRefSchema = () => import("./account-schemas").then((m) => m.userRefSchema);

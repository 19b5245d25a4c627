/**
 * What the browser may import from lib/auth: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { signInAction } from "./actions";
export { LIVE_VIEW_COOKIE } from "./live-view";

/** The form's schema (and zod), loaded when the form is first used: not in the page's first-load JavaScript. */
export const loadSignInSchema = () => import("./schemas").then((m) => m.signInSchema);

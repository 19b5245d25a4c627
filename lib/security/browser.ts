/** What browser code (and the sign-in form's lazily loaded schema) may import from lib/security: pure rules, no Node built-ins. */
export { safeRedirectPath } from "./redirect";
export { safeRedirectUrl } from "./redirect";

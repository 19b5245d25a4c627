/** lib/security: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { contentSecurityPolicy } from "./csp";
export { crossOriginReason, needsSameOrigin } from "./origin";
export type { CrossOriginReason } from "./origin";
export { ACTION_HEADER, ACTION_NOT_FOUND_HEADER, actionRefusal, isActionCandidate, knownActionIds } from "./server-action";
export type { ActionRefusal } from "./server-action";
export { recordRefusal, setRefusalWriter } from "./refusals";
export type { RefusalEntry } from "./refusals";
export { safeRedirectPath, safeRedirectUrl } from "./redirect";

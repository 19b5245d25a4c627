/** lib/http: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { BodyReadError, BodyTooLargeError, readLimitedBody, unstorableTextPath } from "./body";
export { describeError, familyError, guarded, requestIdOf, unknownPathRoutes } from "./errors";
export type { ErrorFamily } from "./errors";
export { parseMediaType } from "./media-type";
export type { MediaType } from "./media-type";
export { controlCharacterPath, hasControlCharacters, impossibleDatePath, isDecodablePath } from "./input";
export { isClientAbort, noteJunk, quietClientAborts } from "./junk";
export { ATTACHMENT_BODY_LIMIT_BYTES, EXCHANGE_API_BODY_LIMIT_BYTES, GATEWAY_BODY_LIMIT_BYTES, OAUTH_BODY_LIMIT_BYTES } from "./limits";
export { routePattern, startHttpObserver } from "./observe";
export { contextFromHeaders, requestContext } from "./request-context";
export { shutdownState, type ShutdownState } from "./shutdown-state";

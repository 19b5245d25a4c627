/** lib/http: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { BodyReadError, BodyTooLargeError, readLimitedBody, unstorableTextPath } from "./body";
export { describeError, familyError, guarded, unknownPathRoutes } from "./errors";
export type { ErrorFamily } from "./errors";
export { controlCharacterPath, hasControlCharacters, impossibleDatePath, isDecodablePath } from "./input";
export { noteJunk } from "./junk";
export { ATTACHMENT_BODY_LIMIT_BYTES, EXCHANGE_API_BODY_LIMIT_BYTES, GATEWAY_BODY_LIMIT_BYTES, OAUTH_BODY_LIMIT_BYTES } from "./limits";
export { startHttpObserver } from "./observe";
export { contextFromHeaders, requestContext } from "./request-context";

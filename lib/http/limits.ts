/**
 * Request-body limits of every route family, in one place (README "Body limits"). Each route
 * enforces its own while streaming (lib/http/body.ts) and answers 413 naming the limit; proxy.ts'
 * buffer (next.config.ts) is set above all of them so it can never cut a body a route would accept.
 */
const MiB = 1024 * 1024;

/** One attachment upload (`POST /api/attachments`): 10 MB. */
export const ATTACHMENT_BODY_LIMIT_BYTES = 10 * MiB;
/** `POST /api/exchange/**` (a Claim with base64 attachments): 12 MiB. */
export const EXCHANGE_API_BODY_LIMIT_BYTES = 12 * MiB;
/** `POST /query` and `POST /fhir/Claim`: 12 MiB. */
export const GATEWAY_BODY_LIMIT_BYTES = 12 * MiB;
/** `POST /oauth/token` (a small form). */
export const OAUTH_BODY_LIMIT_BYTES = 4096;
/** proxy.ts' own buffer: above every limit above (16 MiB). */
export const PROXY_BODY_LIMIT_BYTES = 16 * MiB;

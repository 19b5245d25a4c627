/** Public face of the generic claims API (`GET /v1/claims`, `GET /v1/openapi.json`). */
export { claimsApiRatePerMinute, portalEnvironment } from "./config";
export { encodeCursor, decodeCursor, type CursorKey } from "./cursor";
export { CLAIMS_API_ERROR_CODES, CLAIMS_API_REASONS, claimsApiError, type ClaimsApiReason } from "./errors";
export { handleListClaims, type ClaimsApiDeps } from "./handler";
export { openApiDocument } from "./openapi";
export { parseClaimsQuery, CLAIMS_PARAMETERS, DEFAULT_LIMIT, MAX_LIMIT, type ClaimsQuery } from "./params";
export { listClaims, type ClaimsPage, type ClaimRow } from "./query";
export { toApiClaim, type ApiClaim, type ApiMoney } from "./serialize";

/**
 * The inbound-API kernel (docs/decisions/031). Every machine API (/api/exchange, /fhir and
 * /query, /v1, /oauth/token) runs its calls through `runApi` and throws `AppError`, which — with
 * the rest of the one error catalogue — is imported from "@/lib/errors" only (docs/decisions/063).
 */
export { MEDIA_TYPE_PARAMS_MAX_CHARS, checkJsonContentType, limitError, readJsonObject, tooLarge, type JsonBodyOptions } from "./body";
export { handleTokenRequest } from "./token-endpoint";
export { anonymous, runApi, type ApiCall, type ApiFamily, type AuthRefusal, type AuthStrategy, type Authenticated } from "./kernel";
export { OAuthErrorBodySchema, errorBodySchema, jsonSchemaOf, schemaComponents } from "./openapi";

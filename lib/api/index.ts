/**
 * The inbound-API kernel and the one error catalogue (docs/decisions/031). Every machine API
 * (/api/exchange, /fhir and /query, /v1, /oauth/token) runs its calls through `runApi` and throws
 * `AppError`; import from "@/lib/api", never from the files behind it.
 */
export * from "@/lib/errors";
export { readJsonObject, tooLarge, type JsonBodyOptions } from "./body";
export { anonymous, runApi, type ApiCall, type ApiFamily, type AuthRefusal, type AuthStrategy, type Authenticated } from "./kernel";
export { OAuthErrorBodySchema, errorBodySchema, jsonSchemaOf, schemaComponents } from "./openapi";

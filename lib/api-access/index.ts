/** lib/api-access: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { createApiKeyAction, createGatewayTokenAction, createOAuthClientAction, revokeApiKeyAction, revokeGatewayTokenAction, revokeOAuthClientAction } from "./actions";
export type { OrgKeyMessage } from "./actions";
export { ApiAccessInputError, authenticateApiKey, authenticateGatewayToken, createApiKey, createGatewayToken, listApiKeys, listGatewayTokens, revokeApiKey, revokeGatewayToken } from "./credentials";
export type { GatewayTokenSummary } from "./credentials";
export { authorizeMetricsScrape, createMetricsToken, currentRecord, revokeMetricsToken, verifyMetricsToken } from "./metrics-token";
export { authenticateBearer, createOAuthClient, issueToken, listOAuthClients, revokeOAuthClient, type TokenEndpointDeps } from "./oauth";
export { ORG_CLIENT_ID_PATTERN, OrgKeyInputError, activeKeysOf, addOrgKey, ensureOrgClient, listOrgClients, parsePublicJwk, revokeOrgKey } from "./org-keys";
export type { OrgClient, OrgKey } from "./org-keys";
export { consumeRate, pruneRateCounters, rateHeaders } from "./rate-limit";
export type { RateDecision } from "./rate-limit";
export type { ApiScope } from "./secrets";
export { TOKEN_LIFETIME_SECONDS } from "./oauth";
export { consumeRateFast } from "./rate-limit";

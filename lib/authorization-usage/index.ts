/** lib/authorization-usage (docs/decisions/048): approved vs consumed per service of an authorization; warnings before sending a claim. Decision 048. */
export { authorizationUsage } from "./queries";
export { usageWarnings, type AuthorizationUsage, type ClaimItemInput, type ServiceUsage, type UsageWarning } from "./usage";
export { provideAuthorizationUsageReads, type AuthorizationUsageReads } from "./reads";

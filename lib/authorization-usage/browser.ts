/** What client components may use of lib/authorization-usage (pure; no database). */
export { usageWarnings, type AuthorizationUsage, type ClaimItemInput, type ServiceUsage, type UsageWarning } from "./usage";

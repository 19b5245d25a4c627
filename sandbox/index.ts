/**
 * The platform sandbox: a local HTTPS server with mutual TLS that behaves like the national
 * platform (OAuth, endpoints 1–6, adjudication, errors, rate limits, webhooks). See README.md.
 */
export {
  startSandbox,
  DEFAULT_SANDBOX_PORT,
  DEFAULT_SANDBOX_DATA_DIR,
  DEFAULT_ADJUDICATION_DELAY_MS,
  type SandboxOptions,
  type RunningSandbox,
} from "./server";
export { ensureSandboxPki, renewClientCertificate, certificateThumbprint, type SandboxPki, type RenewedClientCertificate } from "./pki";
export { sandboxCredentials, type SandboxCredentials } from "./credentials";
export { ManualClock, systemClock, type Clock } from "./clock";
export { signWebhook, WEBHOOK_EVENT, DEFAULT_WEBHOOK_RETRY, retryDelayMs, type WebhookRetryPolicy } from "./webhooks";
export { DEFAULT_RATE_LIMITS, type RateLimits } from "./rate-limit";
export { NO_FAULTS, type FaultConfig } from "./faults";
export { PATIENTS, COVERAGES, PAYERS, PRICE_LIST, DIAGNOSES, DEFAULT_PROVIDER_ORG_ID, DEFAULT_PROVIDER_LICENSE } from "./reference-data";
export { sandboxAdminCommands } from "./admin-commands";
export { ensureFacility, readFacilities, type SandboxFacility } from "./facilities";

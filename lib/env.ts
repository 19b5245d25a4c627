import path from "node:path";
import { z } from "zod";
import { parseTrustedProxies } from "@/lib/net";

/**
 * The portal's whole configuration: every environment variable production code reads is declared
 * here, in one section per area, and validated once with one policy — a blank value counts as
 * unset, and any bad value stops the start with a message naming the variable (boot and
 * `npm start` both parse it before anything else runs). Every variable is documented in
 * docs/configuration.md ("Configuration"); keep the two in step (scripts/docs-drift.test.ts).
 *
 * Adding a variable: put it in its area's section below (or add a section and list it in
 * `schema`), with a default where one suits a single clinic, then add a row to docs/configuration.md. Read it with
 * `env().NAME`; never read `process.env` elsewhere (ESLint forbids it outside this file, scripts,
 * tests, the sandbox's own config, next.config.ts and instrumentation.ts).
 *
 * The feature views (`pipelineConfig()`, `providerApiConfig()`, `gatewayConfig()`, …) only map
 * these values into the shapes their modules use; they parse nothing themselves.
 */

const optionalString = z.string().trim().optional();
const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional();
const wholeNumber = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .default(fallback);
const fhirId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9\-.]{1,64}$/, "must be a FHIR id (letters, digits, - and .)");

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

// ── Server: process, database, logging ──────────────────────────────────────────────────────────
const serverSection = {
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: wholeNumber(3000, 1, 65535),
  /**
   * The address the portal listens on: this machine only by default (the demo has published
   * passwords); `0.0.0.0` (IPv4) or `::` (all) opens it to the network.
   */
  HOST: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z0-9.-]{1,253}|[0-9A-Fa-f:]{2,39})$/, "must be a host name or IP address, e.g. 127.0.0.1 or 0.0.0.0")
    .default("127.0.0.1"),
  DATA_DIR: z.string().trim().min(1).default(".data"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://").optional(),
  /** Where the SQL migrations are (the standalone build copies them next to server.js). */
  MIGRATIONS_DIR: optionalString,
  /** Unset: `info`, or `silent` under tests. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).optional(),
  /** `json`: one JSON object a line (for log collectors); `pretty`: for people; `auto`: pretty in a terminal, JSON otherwise. */
  LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
  /** Graceful shutdown (SIGTERM): how long in-flight platform calls may take to finish before they are aborted. */
  SHUTDOWN_GRACE_MS: wholeNumber(10_000, 0, 120_000),
  /** Set by `npm start`: the portal, not Next.js, handles SIGTERM/SIGINT (lib/server/shutdown.ts). */
  NEXT_MANUAL_SIG_HANDLE: optionalString,
  /** The build version shown on System status; `npm start` fills in package.json's version and the git commit. */
  BUILD_VERSION: optionalString,
  /** The portal's public address; default `http://localhost:$PORT`. */
  PORTAL_URL: z.url({ protocol: /^https?$/, error: "must be an http(s):// URL" }).optional(),
  /** Which peers' X-Forwarded-For is believed: none (default), a hop count, or CIDR ranges. */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((v, ctx) => {
      try {
        return parseTrustedProxies(v);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `must be empty, a hop count (e.g. 1) or comma-separated CIDRs (e.g. 10.0.0.0/8): ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
};

// ── Staff sign-in ───────────────────────────────────────────────────────────────────────────────
const authSection = {
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").default("demo-pass-2026"),
};

// ── The clinic ──────────────────────────────────────────────────────────────────────────────────
const clinicSection = {
  CLINIC_NAME: z.string().trim().min(1).max(120).default("Clinic Exchange Demo Clinic"),
  CLINIC_TIME_ZONE: z.string().default("Asia/Riyadh").refine(isTimeZone, "must be an IANA time zone such as Asia/Riyadh"),
  /** The clinic's Organization id at the platform (`provider` of every request). */
  PROVIDER_ORG_ID: fhirId.default("clinic-001"),
};

// ── The platform connection ─────────────────────────────────────────────────────────────────────
const platformSection = {
  /** The platform's FHIR base URL; with the embedded sandbox, `npm start` fills in all PLATFORM_* values. */
  PLATFORM_BASE_URL: httpsUrl,
  PLATFORM_TOKEN_URL: httpsUrl,
  PLATFORM_CLIENT_ID: optionalString,
  PLATFORM_CLIENT_SECRET: optionalString,
  /** PEM file paths. */
  PLATFORM_CLIENT_CERT: optionalString,
  PLATFORM_CLIENT_KEY: optionalString,
  PLATFORM_CA: optionalString,
  PLATFORM_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  /** Set by `npm start` when it started the bundled sandbox for this portal. */
  PLATFORM_EMBEDDED_SANDBOX: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** Standard Webhooks secret (`whsec_…`) shared with the platform. */
  WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must look like whsec_<base64>").optional(),
};

// ── The national exchange's protocol (docs/decisions/034) ────────────────────────────────────────────────
const protocolSection = {
  /**
   * `rest`: the spec's endpoints (default). `messaging`: FHIR message Bundles to `{base}/$process-message`
   * and poll-request Tasks, as the national exchange (NPHIES) speaks. Screens and APIs are the same.
   */
  PLATFORM_PROTOCOL: z.enum(["rest", "messaging"], { error: "must be rest or messaging" }).default("rest"),
  /** The facility's provider licence on the exchange (`MessageHeader.sender`); the sandbox knows the default. */
  PROVIDER_LICENSE: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9\-._]{1,64}$/, "must be a licence number (letters, digits, - . _)")
    .default("PR-CLINIC-001"),
  /** Messaging: how often the poller asks for waiting messages when the last poll drained the queue. */
  MESSAGE_POLL_MS: wholeNumber(5000, 100, 3_600_000),
  /**
   * Messaging: the clinic's FHIR base — `MessageHeader.source.endpoint` and the base of every
   * absolute fullUrl (decision 074). A facility's messages use `<base>/facility/<code>`.
   */
  MESSAGE_SOURCE_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).default("https://clinic.example/fhir"),
  /** Messaging: the facility's provider-type code on the exchange (provider Organization profile). */
  PROVIDER_TYPE: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9\-.]{1,16}$/, "must be a provider-type code")
    .optional(),
};

// ── The submission pipeline (lib/pipeline: outbox worker, poller, webhooks, live events) ─────────
const pipelineSection = {
  OUTBOX_POLL_MS: wholeNumber(1000, 10),
  /** A worker renews its lease every third of it (heartbeat); a crashed worker's rows return after it. */
  OUTBOX_LEASE_MS: wholeNumber(15_000, 1000),
  OUTBOX_MAX_ATTEMPTS: wholeNumber(8, 1),
  OUTBOX_CONCURRENCY: wholeNumber(8, 1, 64),
  /** Messaging: claims of one facility for one insurer per batch-request (1 = never batch; the exchange takes ≤ 200). */
  OUTBOX_BATCH_SIZE: wholeNumber(200, 1, 200),
  OUTBOX_BACKOFF_BASE_MS: wholeNumber(2000, 1),
  OUTBOX_BACKOFF_MAX_MS: wholeNumber(300_000, 1),
  POLL_AFTER_MS: wholeNumber(60_000, 100),
  WEBHOOK_FETCH_TIMEOUT_MS: wholeNumber(3000, 100),
  LIVE_EVENTS_RETENTION_MS: wholeNumber(86_400_000, 60_000),
  /**
   * Submitting a claim or authorization from the form: an eligibility answer for the patient and
   * payer older than this (hours) is checked again first (docs/decisions/090); 0 = always.
   */
  ELIGIBILITY_MAX_AGE_HOURS: wholeNumber(24, 0, 8760),
};

// ── Machine APIs: provider-side exchange API, generic claims API, agent gateway ─────────────────
/** The gateway's agent roles; GATEWAY_AGENTS maps brand names onto them. */
export const AGENT_ROLES = ["claim", "record", "authorization", "notification"] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

const apiSection = {
  EXCHANGE_API_RATE_PER_MINUTE: wholeNumber(120, 1, 100_000),
  CLAIMS_API_RATE_PER_MINUTE: wholeNumber(600, 1, 1_000_000),
  GATEWAY_AGENTS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const { brands, problems } = readGatewayAgents(value);
      for (const problem of problems) ctx.addIssue({ code: "custom", message: problem });
      return brands;
    }),
  GATEWAY_RATE_PER_MINUTE: wholeNumber(300, 1, 100_000),
};

const schema = z.object({
  ...serverSection,
  ...authSection,
  ...clinicSection,
  ...platformSection,
  ...protocolSection,
  ...pipelineSection,
  ...apiSection,
});

export type Env = z.infer<typeof schema>;

/** Thrown when the configuration is unusable; the message names every bad variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The one policy: blank means unset; any issue throws ConfigError listing `VARIABLE: problem`. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== "") cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(root)"}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

/** The validated environment of this process (parsed on first use, then cached). */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * The environment a child process (the Next.js server, the build, the embedded sandbox) starts
 * with: this process's variables passed on, changed by `overrides` (`undefined` removes one).
 * Passing variables on is not reading configuration; this keeps the one `process.env` here.
 */
export function childEnvironment(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const next: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** Absolute path of the data directory (PGlite database, admin socket, generated secrets). */
export function dataDir(e: Env = env()): string {
  return path.resolve(e.DATA_DIR);
}

/**
 * True when the portal talks to the sandbox that `npm start` started beside it (demo users are
 * seeded only then), false for any configured platform — including a platform's own test
 * environment.
 */
export function usesSandbox(e: Env = env()): boolean {
  return e.PLATFORM_EMBEDDED_SANDBOX;
}

/** The logger's threshold: LOG_LEVEL, else `silent` under tests and `info` otherwise. */
export function logLevel(e: Env = env()): "debug" | "info" | "warn" | "error" | "silent" {
  return e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info");
}

/** `npm start` starts the bundled sandbox unless a platform is configured. */
export function shouldStartSandbox(e: Env = env()): boolean {
  return e.PLATFORM_BASE_URL === undefined;
}

/** Where this machine reaches the portal it starts (the health check, the printed address). */
export function localPortalUrl(e: Env = env()): string {
  const anywhere = ["0.0.0.0", "::", "127.0.0.1", "::1", "localhost"].includes(e.HOST);
  const host = anywhere ? "localhost" : e.HOST.includes(":") ? `[${e.HOST}]` : e.HOST;
  return `http://${host}:${e.PORT}`;
}

/** True when HOST opens the portal beyond this machine. */
export function listensBeyondThisMachine(e: Env = env()): boolean {
  return !["127.0.0.1", "::1", "localhost"].includes(e.HOST);
}

/** The portal's public base URL, without a trailing slash. */
export function portalUrl(e: Env = env()): string {
  return (e.PORTAL_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
}

/**
 * Whether the Next.js dev server runs this code. Read literally from `process.env.NODE_ENV`, which
 * Next.js inlines at build time, so the proxy does not parse the whole configuration per request.
 */
export function isDevelopment(): boolean {
  return process.env.NODE_ENV === "development";
}

const BRAND = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

function isAgentRole(value: string): value is AgentRole {
  return (AGENT_ROLES as readonly string[]).includes(value);
}

/**
 * `GATEWAY_AGENTS="ClaimLinc=claim,RecordLinc=record,AuthLinc=authorization,NotifyLinc=notification"`:
 * comma-separated `Brand=role` pairs. Several brands may name one role; a brand may not be given
 * twice, may not be a role name, and must be a plain name (letter first, then letters, digits, `_.-`).
 */
export function readGatewayAgents(value: string | undefined): { brands: Map<string, AgentRole>; problems: string[] } {
  const brands = new Map<string, AgentRole>();
  const problems: string[] = [];
  if (value === undefined || value.trim() === "") return { brands, problems };
  for (const raw of value.split(",")) {
    const pair = raw.trim();
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    if (eq < 0) {
      problems.push(`"${pair}" is not Brand=role`);
      continue;
    }
    const brand = pair.slice(0, eq).trim();
    const role = pair.slice(eq + 1).trim();
    if (!BRAND.test(brand)) problems.push(`"${brand}" is not a valid agent name (letter first, then letters, digits, _ . -; at most 64)`);
    else if (isAgentRole(brand)) problems.push(`"${brand}" is a role name; role names are always accepted and cannot be remapped`);
    else if (brands.has(brand)) problems.push(`"${brand}" is given twice`);
    if (!isAgentRole(role)) problems.push(`"${role}" is not a role (one of ${AGENT_ROLES.join(", ")})`);
    if (problems.length === 0) brands.set(brand, role as AgentRole);
  }
  return { brands, problems };
}

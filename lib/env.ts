import path from "node:path";
import { z } from "zod";
import { parseTrustedProxies } from "@/lib/http/client-address";

/**
 * Server configuration, validated once. Every variable is documented in README.md
 * ("Configuration"); keep the two in step.
 */
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().trim().min(1).default(".data"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  AUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  CLINIC_NAME: z.string().trim().min(1).max(120).default("Clinic Exchange Demo Clinic"),
  CLINIC_TIME_ZONE: z
    .string()
    .default("Asia/Riyadh")
    .refine(isTimeZone, "must be an IANA time zone such as Asia/Riyadh"),
  DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").default("demo-pass-2026"),
  /** The platform's FHIR base URL; with the embedded sandbox, `npm start` fills in all PLATFORM_* values. */
  PLATFORM_BASE_URL: optionalString.pipe(z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional()),
  PLATFORM_TOKEN_URL: optionalString.pipe(z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional()),
  PLATFORM_CLIENT_ID: optionalString,
  PLATFORM_CLIENT_SECRET: optionalString,
  /** PEM file paths. */
  PLATFORM_CLIENT_CERT: optionalString,
  PLATFORM_CLIENT_KEY: optionalString,
  PLATFORM_CA: optionalString,
  PLATFORM_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  /** Set by `npm start` when it started the bundled sandbox for this portal. */
  PLATFORM_EMBEDDED_SANDBOX: z
    .enum(["true", "false", "1", "0", ""])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  PROVIDER_ORG_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9\-.]{1,64}$/, "must be a FHIR id (letters, digits, - and .)")
    .default("clinic-001"),
  /** Standard Webhooks secret (`whsec_…`) shared with the platform. */
  WEBHOOK_SECRET: optionalString.pipe(z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must look like whsec_<base64>").optional()),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
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
});

export type Env = z.infer<typeof schema>;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Thrown when the configuration is unusable; the message lists every bad variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
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

/** `npm start` starts the bundled sandbox unless a platform is configured. */
export function shouldStartSandbox(e: Env = env()): boolean {
  return e.PLATFORM_BASE_URL === undefined;
}

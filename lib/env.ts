import path from "node:path";
import { z } from "zod";

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
  PLATFORM_BASE_URL: optionalString.pipe(z.url("must be an https:// URL").optional()),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
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

/** True when the portal talks to the bundled sandbox rather than a real platform. */
export function usesSandbox(e: Env = env()): boolean {
  return e.PLATFORM_BASE_URL === undefined;
}

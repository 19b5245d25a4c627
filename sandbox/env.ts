import { z } from "zod";
import { ANSWER_STYLES } from "./answer-style";
import { CONFORMANCE_LEVELS } from "./context";
import { DEFAULT_ADJUDICATION_DELAY_MS, DEFAULT_SANDBOX_DATA_DIR, DEFAULT_SANDBOX_PORT } from "./defaults";
import type { SandboxOptions } from "./server";

/** The sandbox's variables and their defaults (the README's configuration table is tested against it). */
export const SANDBOX_ENV_SCHEMA = z.object({
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_SANDBOX_PORT),
  /** The address the sandbox listens on: this machine only unless told otherwise. */
  SANDBOX_HOST: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z0-9.-]{1,253}|[0-9A-Fa-f:]{2,39})$/, "must be a host name or IP address")
    .default("127.0.0.1"),
  SANDBOX_DATA_DIR: z.string().min(1).default(DEFAULT_SANDBOX_DATA_DIR),
  SANDBOX_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  SANDBOX_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must look like whsec_<base64>").optional(),
  SANDBOX_ADJUDICATION_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(DEFAULT_ADJUDICATION_DELAY_MS),
  PROVIDER_ORG_ID: z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/, "must be a FHIR id").optional(),
  SANDBOX_ANSWER_STYLE: z.enum(ANSWER_STYLES).optional(),
  /**
   * How strictly messages are checked against the exchange's rules (docs/decisions/072): strict
   * (the default: refused as the exchange refuses) | lenient (refuses only what cannot be processed).
   */
  SANDBOX_CONFORMANCE: z.enum(CONFORMANCE_LEVELS).default("strict"),
  /** Decisions 045–048: the payer pays decided claims this many ms after their decision (0 = off). */
  SANDBOX_AUTO_REMIT_MS: z.coerce.number().int().min(0).max(86_400_000).default(0),
  /**
   * Decision 115: what the payer does with information the clinic sends unasked about a partly
   * approved claim or authorization — approve (reissue the decision approved in full) | off (acknowledge only).
   */
  SANDBOX_EVIDENCE_REISSUE: z.enum(["approve", "off"]).default("approve"),
  /** The most refills the payer approves on one prescription line (guide 7.11; docs/decisions/116). */
  SANDBOX_MAX_REFILLS: z.coerce.number().int().min(0).max(12).default(3),
});

/** Reads the sandbox's environment variables; throws a readable message when one is malformed. */
export function parseSandboxEnv(env: NodeJS.ProcessEnv): SandboxOptions {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = SANDBOX_ENV_SCHEMA.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid environment: ${lines.join("; ")}`);
  }
  const e = result.data;
  return {
    port: e.SANDBOX_PORT,
    host: e.SANDBOX_HOST,
    dataDir: e.SANDBOX_DATA_DIR,
    webhookUrl: e.SANDBOX_WEBHOOK_URL,
    webhookSecret: e.SANDBOX_WEBHOOK_SECRET,
    adjudicationDelayMs: e.SANDBOX_ADJUDICATION_DELAY_MS,
    providerOrgId: e.PROVIDER_ORG_ID,
    answerStyle: e.SANDBOX_ANSWER_STYLE,
    autoRemitMs: e.SANDBOX_AUTO_REMIT_MS,
    conformance: e.SANDBOX_CONFORMANCE,
    evidenceReissue: e.SANDBOX_EVIDENCE_REISSUE,
    maxRefills: e.SANDBOX_MAX_REFILLS,
  };
}

/** The sandbox server's options from this process's environment (its entry point calls this). */
export function sandboxEnv(): SandboxOptions {
  return parseSandboxEnv(process.env);
}

/**
 * The sandbox's variables that its CLI and credential helpers read outside the server process.
 * A blank value counts as unset, as in lib/env.ts.
 */
export type SandboxVariable = "SANDBOX_DATA_DIR" | "SANDBOX_PORT" | "SANDBOX_WEBHOOK_SECRET" | "PROVIDER_ORG_ID";

export function sandboxVariable(name: SandboxVariable): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

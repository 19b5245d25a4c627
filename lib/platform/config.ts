import fs from "node:fs";
import path from "node:path";
import { env as processEnv, type Env } from "@/lib/env";
import { PlatformConfigError } from "./errors";

/** Everything the platform client needs; built from the environment by {@link platformConfigFromEnv}. */
export interface PlatformConfig {
  environment: "sandbox" | "production";
  /** FHIR base URL, no trailing slash. */
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM file paths (absolute). `caFile` is optional: without it the system trust store is used. */
  tls: { certFile: string; keyFile: string; caFile?: string };
  providerOrgId: string;
  /** `rest` (default) or `messaging` (PLATFORM_PROTOCOL). */
  protocol?: "rest" | "messaging";
  /** The facility's provider licence: `MessageHeader.sender` in messaging (PROVIDER_LICENSE). */
  providerLicense?: string;
  /** Messaging: our FHIR base (MESSAGE_SOURCE_ENDPOINT; per facility below it), the facility's name and provider type. */
  sourceEndpoint?: string;
  providerName?: string;
  providerType?: string;
  timeouts?: Partial<PlatformTimeouts>;
  /** Most sockets kept open to the platform (default 16). */
  connections?: number;
  /** Idle keep-alive of a socket (default 30 s; the server's Keep-Alive hint wins when shorter). */
  keepAliveTimeoutMs?: number;
}

export interface PlatformTimeouts {
  /** TCP + TLS handshake. */
  connectMs: number;
  /** From request sent to response headers. */
  headersMs: number;
  /** Between body chunks. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: PlatformTimeouts = { connectMs: 5_000, headersMs: 15_000, bodyMs: 30_000 };

function readable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The platform settings of this process. Throws PlatformConfigError naming every missing variable,
 * or the variable and path of a PEM file that does not exist or cannot be read.
 */
export function platformConfigFromEnv(e: Env = processEnv()): PlatformConfig {
  const required = {
    PLATFORM_BASE_URL: e.PLATFORM_BASE_URL,
    PLATFORM_TOKEN_URL: e.PLATFORM_TOKEN_URL,
    PLATFORM_CLIENT_ID: e.PLATFORM_CLIENT_ID,
    PLATFORM_CLIENT_SECRET: e.PLATFORM_CLIENT_SECRET,
    PLATFORM_CLIENT_CERT: e.PLATFORM_CLIENT_CERT,
    PLATFORM_CLIENT_KEY: e.PLATFORM_CLIENT_KEY,
  };
  const missing = Object.entries(required)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length > 0) {
    throw new PlatformConfigError(
      `The platform connection is not configured: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set. ` +
        "Start the portal with `npm start` (it fills these from the embedded sandbox) or set them for your platform (docs/configuration.md).",
      missing[0],
    );
  }
  const files: [variable: string, file: string | undefined][] = [
    ["PLATFORM_CLIENT_CERT", e.PLATFORM_CLIENT_CERT],
    ["PLATFORM_CLIENT_KEY", e.PLATFORM_CLIENT_KEY],
    ["PLATFORM_CA", e.PLATFORM_CA],
  ];
  for (const [variable, file] of files) {
    if (file === undefined) continue;
    const absolute = path.resolve(file);
    if (!readable(absolute)) {
      throw new PlatformConfigError(
        `${variable} points to ${absolute}, which does not exist or cannot be read. Set ${variable} to the path of a PEM file.`,
        variable,
      );
    }
  }
  return {
    environment: e.PLATFORM_ENV,
    baseUrl: String(e.PLATFORM_BASE_URL).replace(/\/+$/, ""),
    tokenUrl: String(e.PLATFORM_TOKEN_URL),
    clientId: String(e.PLATFORM_CLIENT_ID),
    clientSecret: String(e.PLATFORM_CLIENT_SECRET),
    tls: {
      certFile: path.resolve(String(e.PLATFORM_CLIENT_CERT)),
      keyFile: path.resolve(String(e.PLATFORM_CLIENT_KEY)),
      ...(e.PLATFORM_CA ? { caFile: path.resolve(e.PLATFORM_CA) } : {}),
    },
    providerOrgId: e.PROVIDER_ORG_ID,
    protocol: e.PLATFORM_PROTOCOL,
    providerLicense: e.PROVIDER_LICENSE,
    sourceEndpoint: e.MESSAGE_SOURCE_ENDPOINT,
    providerName: e.CLINIC_NAME,
    ...(e.PROVIDER_TYPE ? { providerType: e.PROVIDER_TYPE } : e.PLATFORM_EMBEDDED_SANDBOX ? { providerType: EMBEDDED_SANDBOX_PROVIDER_TYPE } : {}),
  };
}

/**
 * The provider-type of the embedded sandbox's training clinic when PROVIDER_TYPE is not set: the
 * provider Organization profile requires one, and a strict sandbox refuses a message without it
 * (docs/decisions/083). A real clinic sets its own.
 */
export const EMBEDDED_SANDBOX_PROVIDER_TYPE = "5";

import path from "node:path";
import { ensureSandboxPki, pkiPaths } from "./pki";
import { DEFAULT_PROVIDER_ORG_ID } from "./reference-data";
import { sandboxVariable } from "./env";
import { ensureSandboxSecrets } from "./secrets";

/** What the portal needs to talk to the sandbox. Paths are absolute. */
export interface SandboxCredentials {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Client certificate (PEM file). */
  cert: string;
  /** Client private key (PEM file, mode 0600). */
  key: string;
  /** CA certificate to trust for the sandbox server (PEM file). */
  ca: string;
  webhookSecret: string;
  adminToken: string;
  providerOrgId: string;
}

export interface CredentialOptions {
  providerOrgId?: string;
  webhookSecret?: string;
}

/** Credentials for an existing PKI (no key generation; secrets are created if missing). */
export function readSandboxCredentials(dataDir: string, port: number, options: CredentialOptions = {}): SandboxCredentials {
  const dir = path.resolve(dataDir);
  const paths = pkiPaths(dir);
  const secrets = ensureSandboxSecrets(dir);
  const baseUrl = `https://localhost:${port}`;
  return {
    baseUrl,
    tokenUrl: `${baseUrl}/oauth/token`,
    clientId: secrets.clientId,
    clientSecret: secrets.clientSecret,
    cert: paths.client,
    key: paths.clientKey,
    ca: paths.ca,
    webhookSecret: options.webhookSecret ?? secrets.webhookSecret,
    adminToken: secrets.adminToken,
    providerOrgId: options.providerOrgId ?? DEFAULT_PROVIDER_ORG_ID,
  };
}

/**
 * Credentials of the sandbox in `dataDir` listening on `port`; creates the PKI and secrets when
 * missing. `providerOrgId` defaults to PROVIDER_ORG_ID or `clinic-001`, the webhook secret to
 * SANDBOX_WEBHOOK_SECRET or the generated one.
 */
export async function sandboxCredentials(dataDir: string, port: number, options: CredentialOptions = {}): Promise<SandboxCredentials> {
  await ensureSandboxPki(dataDir);
  return readSandboxCredentials(dataDir, port, {
    providerOrgId: options.providerOrgId ?? sandboxVariable("PROVIDER_ORG_ID"),
    webhookSecret: options.webhookSecret ?? sandboxVariable("SANDBOX_WEBHOOK_SECRET"),
  });
}

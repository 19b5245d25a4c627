import path from "node:path";
import readline from "node:readline";
import { sandboxCredentials } from "@/sandbox/credentials";
import { startManaged, type Managed } from "./processes";

export interface SandboxRun {
  process: Managed;
  url: string;
  dataDir: string;
  /** The PLATFORM_* settings that point the portal at this sandbox. */
  portalEnv: Record<string, string>;
}

/**
 * Starts the platform sandbox as its own process (its own store, never the portal's data
 * directory) and waits for its "ready" line. Its log lines are passed through with a prefix.
 */
export async function startSandboxProcess(root: string, portalPort: number, timeoutMs = 60_000): Promise<SandboxRun> {
  const dataDir = path.resolve(process.env.SANDBOX_DATA_DIR || ".sandbox");
  const port = Number(process.env.SANDBOX_PORT || 9443);
  const providerOrgId = process.env.PROVIDER_ORG_ID || undefined;
  // Creates the PKI and secrets on first start, so the portal and the sandbox share them.
  const credentials = await sandboxCredentials(dataDir, port, { providerOrgId });
  // The messaging protocol has no webhooks: the portal polls (PLATFORM_PROTOCOL=messaging).
  const messaging = process.env.PLATFORM_PROTOCOL?.trim() === "messaging";
  const { SANDBOX_WEBHOOK_URL: _unused, ...inherited } = process.env;
  void _unused;
  const child = startManaged("sandbox", process.execPath, ["--import", "tsx", path.join(root, "sandbox", "main.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
    // The sandbox signs its claim.status.changed webhooks with the secret the portal verifies.
    env: {
      ...inherited,
      SANDBOX_DATA_DIR: dataDir,
      ...(messaging ? {} : { SANDBOX_WEBHOOK_URL: process.env.SANDBOX_WEBHOOK_URL || `http://127.0.0.1:${portalPort}/api/webhooks/platform` }),
      SANDBOX_WEBHOOK_SECRET: credentials.webhookSecret,
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited during start-up (exit ${code})`));
    });
    readline.createInterface({ input: child.child.stdout! }).on("line", (line) => {
      console.log(`[sandbox] ${line}`);
      const ready = /^sandbox ready on (\S+)/.exec(line);
      if (ready) {
        clearTimeout(timer);
        resolve({
          process: child,
          url: ready[1]!,
          dataDir,
          portalEnv: {
            PLATFORM_BASE_URL: credentials.baseUrl,
            PLATFORM_TOKEN_URL: credentials.tokenUrl,
            PLATFORM_CLIENT_ID: credentials.clientId,
            PLATFORM_CLIENT_SECRET: credentials.clientSecret,
            PLATFORM_CLIENT_CERT: credentials.cert,
            PLATFORM_CLIENT_KEY: credentials.key,
            PLATFORM_CA: credentials.ca,
            PLATFORM_ENV: "sandbox",
            PROVIDER_ORG_ID: credentials.providerOrgId,
            WEBHOOK_SECRET: credentials.webhookSecret,
          },
        });
      }
    });
  });
}

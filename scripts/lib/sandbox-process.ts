import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Agent, request } from "undici";
import { childEnvironment, type Env } from "@/lib/env";
import { sandboxCredentials } from "@/sandbox/credentials";
import { DEFAULT_SANDBOX_DATA_DIR, DEFAULT_SANDBOX_PORT } from "@/sandbox/defaults";
import { sandboxEnv } from "@/sandbox/env";
import { startManaged, type Managed } from "./processes";

export interface SandboxRun {
  process: Managed;
  url: string;
  dataDir: string;
  /** The PLATFORM_* settings that point the portal at this sandbox. */
  portalEnv: Record<string, string>;
  /** A GET of the sandbox's admin API (`/_admin/…`) over mTLS, its JSON answer. */
  adminGet(pathAndQuery: string): Promise<unknown>;
}

/**
 * Starts the platform sandbox as its own process (its own store, never the portal's data
 * directory) and waits for its "ready" line. Its log lines are passed through with a prefix.
 */
export async function startSandboxProcess(root: string, portal: Pick<Env, "PORT" | "PLATFORM_PROTOCOL">, timeoutMs = 60_000): Promise<SandboxRun> {
  // The sandbox's own variables, read and checked by its configuration (sandbox/env.ts).
  const options = sandboxEnv();
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_SANDBOX_DATA_DIR);
  const port = options.port ?? DEFAULT_SANDBOX_PORT;
  // Creates the PKI and secrets on first start, so the portal and the sandbox share them.
  const credentials = await sandboxCredentials(dataDir, port, { providerOrgId: options.providerOrgId });
  // The messaging protocol has no webhooks: the portal polls (PLATFORM_PROTOCOL=messaging).
  const messaging = portal.PLATFORM_PROTOCOL === "messaging";
  // The child inherits this environment, without a webhook address the messaging mode must not use.
  const child = startManaged("sandbox", process.execPath, ["--import", "tsx", path.join(root, "sandbox", "main.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
    // The sandbox signs its claim.status.changed webhooks with the secret the portal verifies.
    env: childEnvironment({
      SANDBOX_DATA_DIR: dataDir,
      SANDBOX_WEBHOOK_URL: messaging ? undefined : (options.webhookUrl ?? `http://127.0.0.1:${portal.PORT}/api/webhooks/platform`),
      SANDBOX_WEBHOOK_SECRET: credentials.webhookSecret,
    }),
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
          async adminGet(pathAndQuery) {
            const agent = new Agent({ connect: { ca: fs.readFileSync(credentials.ca, "utf8"), cert: fs.readFileSync(credentials.cert, "utf8"), key: fs.readFileSync(credentials.key, "utf8") } });
            try {
              const res = await request(`${ready[1]!}${pathAndQuery}`, { dispatcher: agent, headers: { "x-sandbox-admin-token": credentials.adminToken } });
              return (await res.body.json()) as unknown;
            } finally {
              await agent.close();
            }
          },
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

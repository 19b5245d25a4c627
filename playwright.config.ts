import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
/** E2E_RUN_NAME names a second run (e.g. `messaging`): its own report and server log beside the first. */
const RUN = process.env.E2E_RUN_NAME ? `-${process.env.E2E_RUN_NAME}` : "";
const E2E_DIR = process.env.E2E_DATA_DIR ?? path.join(__dirname, ".data-e2e");
/** The portal's and the sandbox's stores are separate folders, as in production. */
export const E2E_PORTAL_DATA_DIR = path.join(E2E_DIR, "portal");
/** Everything the portal and the sandbox print during the run; e2e/log-scan.spec.ts reads it last. */
export const E2E_SERVER_LOG = path.join(__dirname, "test-results", `server${RUN}.log`);

/**
 * Journeys that exist only in the messaging protocol (what the exchange sends arrives by poll):
 * the messaging run lists them (scripts/test.sh); the REST run leaves them out rather than
 * counting them as skipped.
 */
const MESSAGING_ONLY = [
  "inbox.spec.ts",
  "advanced-authorizations.spec.ts",
  "visit-details.spec.ts",
  // The national exchange's own use cases (guide v2.7): authorization versions, unsolicited
  // evidence, newborns and offline approvals, prescription verification, transfer of care.
  "authorization-changes.spec.ts",
  "evidence.spec.ts",
  "newborn.spec.ts",
  "prescriptions.spec.ts",
  "referral.spec.ts",
];

export default defineConfig({
  testDir: "e2e",
  // Two cores: one browser at a time keeps timings honest.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: `test-results/e2e${RUN}.json` }]],
  outputDir: `test-results/e2e-artifacts${RUN}`,
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "browser", testIgnore: [/log-scan\.spec\.ts$/, ...(process.env.E2E_PLATFORM_PROTOCOL === "messaging" ? [] : MESSAGING_ONLY.map((f) => `**/${f}`))] },
    // Runs after every other spec (and the fuzz suite), against the log they produced.
    { name: "log-scan", testMatch: /log-scan\.spec\.ts$/, dependencies: ["browser"] },
  ],
  webServer: {
    // The same script as `npm start` (builds when needed, seeds the demo users, starts everything),
    // its output copied to test-results/server.log for the log scan.
    command: `mkdir -p test-results && node --import tsx scripts/start.ts 2>&1 | tee "${E2E_SERVER_LOG}"`,
    url: `http://localhost:${PORT}/api/health`,
    timeout: 300_000,
    // E2E_REUSE_SERVER=1: run specs against a portal already started on E2E_PORT (while developing).
    reuseExistingServer: process.env.E2E_REUSE_SERVER === "1",
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_PORTAL_DATA_DIR,
      SANDBOX_DATA_DIR: path.join(E2E_DIR, "sandbox"),
      SANDBOX_PORT: String(PORT + 6000),
      // The fuzz suite sends thousands of authenticated requests in a minute: the machine APIs'
      // own per-client limits would answer most of them 429 before any input was read.
      EXCHANGE_API_RATE_PER_MINUTE: "100000",
      CLAIMS_API_RATE_PER_MINUTE: "100000",
      GATEWAY_RATE_PER_MINUTE: "100000",
      // E2E_PLATFORM_PROTOCOL=messaging: the same journeys over FHIR messages and polls (issue 17).
      PLATFORM_PROTOCOL: process.env.E2E_PLATFORM_PROTOCOL ?? "rest",
      MESSAGE_POLL_MS: "1000",
    },
  },
});

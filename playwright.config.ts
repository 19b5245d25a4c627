import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const E2E_DIR = process.env.E2E_DATA_DIR ?? path.join(__dirname, ".data-e2e");
/** The portal's and the sandbox's stores are separate folders, as in production. */
export const E2E_PORTAL_DATA_DIR = path.join(E2E_DIR, "portal");

export default defineConfig({
  testDir: "e2e",
  // Two cores: one browser at a time keeps timings honest.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  outputDir: "test-results/e2e-artifacts",
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
  webServer: {
    // The same script as `npm start`: builds when needed, seeds the demo users, starts everything.
    command: "node --import tsx scripts/start.ts",
    url: `http://localhost:${PORT}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_PORTAL_DATA_DIR,
      SANDBOX_DATA_DIR: path.join(E2E_DIR, "sandbox"),
      SANDBOX_PORT: String(PORT + 6000),
    },
  },
});

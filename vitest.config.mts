import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["{lib,sandbox,scripts,components}/**/*.test.ts"],
    environment: "node",
    // The reads the composition hands to the lower layers at boot (lib/server/owner-reads.ts), for tests too.
    setupFiles: ["lib/server/testing/owner-reads.ts"],
    // Two cores: database tests open PGlite (2-4 s each); keep the pool small.
    maxWorkers: 2,
    // Generous: the pipeline suites wait for real adjudication over mTLS, and CI machines are shared.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});

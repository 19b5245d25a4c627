import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["{lib,sandbox,scripts,components}/**/*.test.ts"],
    environment: "node",
    // Two cores: database tests open PGlite (2-4 s each); keep the pool small.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

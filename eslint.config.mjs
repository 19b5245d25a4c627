import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// No import past a module's entry (docs/decisions/041-module-entries.md): other code reaches lib/<module>
// through @/lib/<module> (index.ts), client components through @/lib/<module>/browser. Tests may
// reach inside (they test the parts).
const ENTRY_ONLY = {
  group: ["@/lib/*/*", "!@/lib/*/browser", "!@/lib/fhir/mds"],
  message: "Import a lib module through its entry: @/lib/<module> (index.ts), or @/lib/<module>/browser in client components (docs/decisions/041).",
};
const LIB_LAYER = { group: ["@/app/*", "@/app/**", "@/components/*", "@/components/**"], message: "lib/ may not import from app/ or components/ (app → components → lib)." };
/*
 * THE MAP OF lib/ (docs/decisions/064) — the one place it is stated; `npm run lint` enforces it.
 * Layers from the bottom up. Code in a module may import modules of its own layer or of a layer
 * below, never above (same-layer imports are fine; lib/import-cycles.test.ts refuses any cycle).
 * A new lib folder must be placed here (lib/boundaries.test.ts fails until it is).
 */
export const LIB_MAP = [
  // Core: no business knowledge — configuration, time, ids, errors, logs, metrics, money, the FHIR
  // model, the database schema, HTTP and network plumbing, words of the UI.
  { layer: "core", modules: ["env", "net", "time", "ids", "errors", "log", "metrics", "cursor", "security", "csv", "fhir", "money", "db", "http", "i18n", "testing"] },
  // Platform: shared services every feature stands on — audit, staff sign-in, facilities, files,
  // the patient registry, the port to the national platform, operations, the machine-API kernel
  // and its credentials.
  { layer: "platform", modules: ["audit", "auth", "facilities", "attachments", "patients", "terminology", "platform", "operations", "api-access", "api"] },
  // Domain: the submission (its one owner) and the pipeline that sends and follows it, with the
  // small domain readers built on them.
  { layer: "domain", modules: ["contracts", "scrubber", "submissions", "inbox", "pipeline", "deadlines", "authorization-usage", "denials"] },
  // Features: what staff do on the screens — thin layers on the domain.
  { layer: "features", modules: ["authorizations", "prescriptions", "claims", "cancellation", "information-requests", "evidence", "payments", "eligibility", "visits", "dashboard", "admin"] },
  // Machine APIs: what other systems call (/api/exchange, /fhir and /query, /mcp, /v1).
  { layer: "machine-apis", modules: ["provider-api", "gateway", "claims-api", "mcp"] },
  // Composition: the process — boot, background services, shutdown.
  { layer: "composition", modules: ["server"] },
];

/** The no-restricted-imports pattern that keeps a layer's modules off the layers above it. */
function higherLayers(index) {
  const above = LIB_MAP.slice(index + 1).flatMap((l) => l.modules);
  if (above.length === 0) return [];
  return [
    {
      group: above.flatMap((m) => [`@/lib/${m}`, `@/lib/${m}/*`]),
      message: `The ${LIB_MAP[index].layer} layer may not import a module of a higher layer (${LIB_MAP.slice(index + 1).map((l) => l.layer).join(", ")}); see the map of lib/ in eslint.config.mjs (docs/decisions/064).`,
    },
  ];
}

/**
 * Tables with one owner (docs/decisions/127-owned-tables.md): only the owner module imports them
 * from @/lib/db; every other module asks the owner. `stillReading` lists the files that read them
 * directly today — the debt the decision counts, to be moved one by one (lib/boundaries.test.ts
 * fails on an entry that no longer imports the table, so the list only shrinks); any other file
 * that imports one fails the lint.
 */
export const OWNED_TABLES = {
  owner: "lib/submissions",
  tables: ["submissions", "submissionEvents"],
  stillReading: [
    "lib/authorization-usage/queries.ts",
    "lib/claims/queries.ts",
    "lib/claims/reconcile.ts",
    "lib/claims/service.ts",
    "lib/claims/work-queue.ts",
    "lib/dashboard/queries.ts",
    "lib/deadlines/queries.ts",
    "lib/gateway/notifications.ts",
    "lib/gateway/record.ts",
    "lib/gateway/submissions.ts",
    "lib/information-requests/service.ts",
    "lib/pipeline/inbound.ts",
    "lib/pipeline/submit-api-claim.ts",
    "lib/scrubber/facts.ts",
    "scripts/messaging-batch.ts",
  ],
};

const TESTS = ["**/*.test.ts", "**/*.test.tsx", "**/testing/**", "sandbox/test-support.ts", "**/*.test-support.ts", "scripts/bench-*.ts", "scripts/scale-out.ts", "scripts/seed-volume.ts", "scripts/messaging-batch.ts", "scripts/scrub-measure.ts", "scripts/mcp-demo.ts"];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", ".sandbox/**", "drizzle/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Dependencies point one way (docs/decisions/027-boundaries-and-remaining-debt.md): app → components → lib,
  // and the sandbox shares only lib/fhir with the portal. A violation fails `npm run lint`
  // (lib/boundaries.test.ts proves it on a fixture).
  {
    // proxy.ts is left out on purpose: it runs before every request and imports single files.
    files: ["app/**/*.{ts,tsx}", "scripts/**/*.ts", "instrumentation.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": ["error", { patterns: [ENTRY_ONLY] }],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/app/*", "@/app/**", "**/app/**"], message: "components/ may not import from app/ (app → components → lib)." }, ENTRY_ONLY] }],
    },
  },
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": ["error", { patterns: [LIB_LAYER, ENTRY_ONLY] }],
    },
  },
  // The map of lib/: each layer's modules, the layers above them refused (same rule, so it repeats LIB_LAYER and ENTRY_ONLY).
  ...LIB_MAP.map((layer, index) => ({
    files: layer.modules.flatMap((m) => [`lib/${m}/**/*.{ts,tsx}`, `lib/${m}.ts`]),
    ignores: TESTS,
    rules: {
      "no-restricted-imports": ["error", { patterns: [LIB_LAYER, ENTRY_ONLY, ...higherLayers(index)] }],
    },
  })),
  {
    files: TESTS.filter((g) => g.startsWith("**")).map((g) => `lib/${g}`),
    rules: {
      "no-restricted-imports": ["error", { patterns: [LIB_LAYER] }],
    },
  },
  {
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "scripts/**/*.ts", "instrumentation.ts"],
    ignores: [...TESTS, `${OWNED_TABLES.owner}/**`, "lib/db/**", ...OWNED_TABLES.stillReading],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: `ImportDeclaration[source.value="@/lib/db"] > ImportSpecifier[imported.name=/^(${OWNED_TABLES.tables.join("|")})$/]`,
          message: `The tables ${OWNED_TABLES.tables.join(", ")} belong to ${OWNED_TABLES.owner}: ask it (its reads and views) instead of reading them (docs/decisions/127).`,
        },
      ],
    },
  },
  {
    files: ["sandbox/**/*.ts"],
    // Tests may check that the portal reads what the sandbox answers (that is their point).
    ignores: ["sandbox/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/*", "!@/lib", "@/lib/*", "!@/lib/fhir", "**/lib/*", "!**/lib/fhir", "**/lib/fhir/*", "**/app/**", "**/components/**"],
              message: "The sandbox shares only lib/fhir (through its index) with the portal.",
            },
          ],
        },
      ],
    },
  },
  {
    // One configuration (lib/env.ts): production code reads env(), never process.env.
    files: ["**/*.{ts,tsx,mts,cts,js,mjs}"],
    ignores: [
      "lib/env.ts", // the one place that reads and validates the portal's variables
      "next.config.ts", // build-time settings, read by Next.js before any app code
      "instrumentation.ts", // NEXT_RUNTIME/NEXT_PHASE are inlined by Next.js to drop Node-only code
      "sandbox/env.ts", // the sandbox process's own configuration (it may not import lib/env.ts)
      "scripts/**", // command-line tools set up child processes' environments
      "e2e/**",
      "playwright.config.ts",
      "vitest.config.mts",
      "**/*.test.ts",
      "**/*.test.tsx",
      "**/testing/**", // test helpers (worker children, throw-away databases)
      "sandbox/test-support.ts",
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration with env() from lib/env.ts (declare the variable there)." },
      ],
    },
  },
];
export default config;

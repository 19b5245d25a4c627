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
  { layer: "core", modules: ["env", "net", "time", "ids", "handed-down", "errors", "log", "metrics", "cursor", "security", "csv", "fhir", "money", "db", "http", "i18n", "testing"] },
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
 * Tables with one owner (docs/decisions/127-owned-tables.md, 128-every-owned-table.md): the module
 * that alone writes them is the only one that reads them; every other module asks the owner. One
 * entry per owner: `stillReading` lists the files outside the owner that read its tables directly
 * today — the debt the decisions count, to be moved one by one (lib/boundaries.test.ts fails on a
 * listed file that no longer reads one of them, so each list only shrinks); any other file that
 * reads one fails the lint. Reading means a named import from @/lib/db or a use through its
 * `tables` namespace. Tables written by several modules (or only by the database's triggers) have
 * no entry: decision 128 lists them.
 */
const SUBMISSIONS_TABLES = {
  owner: "lib/submissions",
  tables: ["submissions", "submissionEvents", "informationRequests"],
  stillReading: [],
};

export const OWNED_TABLES = [
  SUBMISSIONS_TABLES,
  { owner: "lib/api-access", tables: ["apiKeys", "apiRateCounters", "gatewayTokens", "oauthClients", "orgClients", "orgKeys"], stillReading: [] },
  { owner: "lib/audit", tables: ["auditEvents"], stillReading: [] },
  { owner: "lib/auth", tables: ["authSessions", "signInFailures"], stillReading: [] },
  { owner: "lib/claims", tables: ["claimWork", "claimWorkNotes"], stillReading: [] },
  { owner: "lib/contracts", tables: ["contractPrices"], stillReading: [] },
  { owner: "lib/dashboard", tables: ["dashboardClock"], stillReading: [] },
  { owner: "lib/deadlines", tables: ["insurerFilingWindows"], stillReading: [] },
  { owner: "lib/evidence", tables: ["evidenceMessages"], stillReading: [] },
  { owner: "lib/facilities", tables: ["facilities", "practitioners"], stillReading: [] },
  { owner: "lib/gateway", tables: ["gatewayNotificationPositions"], stillReading: [] },
  { owner: "lib/inbox", tables: ["inboxMessages", "inboxPolls"], stillReading: [] },
  {
    owner: "lib/patients",
    tables: ["coverages", "offlineEligibilities"],
    stillReading: [],
  },
  { owner: "lib/payments", tables: ["paymentNotices", "remittanceLines", "remittances"], stillReading: [] },
  { owner: "lib/pipeline", tables: ["webhookReceipts"], stillReading: [] },
  { owner: "lib/platform", tables: ["platformRateBlocks", "platformRatePermits", "platformRateWaiters"], stillReading: [] },
  { owner: "lib/terminology", tables: ["terminologyCodes", "terminologyImports"], stillReading: [] },
  { owner: "lib/visits", tables: ["visitLists", "visitRuns", "visits"], stillReading: [] },
];

const TESTS = ["**/*.test.ts", "**/*.test.tsx", "**/testing/**", "sandbox/test-support.ts", "**/*.test-support.ts", "scripts/bench-*.ts", "scripts/scale-out.ts", "scripts/seed-volume.ts", "scripts/messaging-batch.ts", "scripts/scrub-measure.ts", "scripts/mcp-demo.ts"];

/** The no-restricted-syntax selectors refusing an entry's tables: a named import from @/lib/db, or a use through its `tables` namespace. */
function ownedTableSelectors(entry) {
  const names = `/^(${entry.tables.join("|")})$/`;
  const message = `The tables ${entry.tables.join(", ")} belong to ${entry.owner}: ask it (its reads and views) instead of reading them (docs/decisions/127, 128).`;
  return [
    `ImportDeclaration[source.value="@/lib/db"] > ImportSpecifier[imported.name=${names}]`,
    `MemberExpression[object.name="tables"][property.name=${names}]`,
    `TSQualifiedName[left.name="tables"][right.name=${names}]`,
    `VariableDeclarator[init.name="tables"] > ObjectPattern > Property[key.name=${names}]`,
  ].map((selector) => ({ selector, message }));
}

/**
 * The owned-table rule per file group. ESLint replaces a rule's options across configuration
 * blocks (the last matching block wins), so each block carries every selector that applies to its
 * files: all production files refuse every entry's tables; an owner's folder refuses every entry
 * but its own; a listed reader refuses every entry except the owner of its folder and the entries
 * that list it (so a file still reading submissions is refused coverages). Most specific last.
 * `entries` is OWNED_TABLES; lib/boundaries.test.ts passes its own to check a listed reader's rule
 * when no file is listed.
 */
export function ownedTableBlocks(entries = OWNED_TABLES) {
  const rule = (applies) => {
    const selectors = entries.filter(applies).flatMap(ownedTableSelectors);
    return selectors.length > 0 ? ["error", ...selectors] : "off";
  };
  const inside = (file, entry) => file.startsWith(`${entry.owner}/`);
  const listed = [...new Set(entries.flatMap((entry) => entry.stillReading))];
  return [
    {
      files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "scripts/**/*.ts", "instrumentation.ts"],
      ignores: [...TESTS, "lib/db/**"],
      rules: { "no-restricted-syntax": rule(() => true) },
    },
    ...entries.map((owner) => ({
      files: [`${owner.owner}/**/*.{ts,tsx}`],
      ignores: TESTS,
      rules: { "no-restricted-syntax": rule((entry) => entry !== owner) },
    })),
    ...listed.map((file) => ({
      files: [file],
      ignores: TESTS,
      rules: { "no-restricted-syntax": rule((entry) => !inside(file, entry) && !entry.stillReading.includes(file)) },
    })),
  ];
}

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
  // Owned tables (decisions 127, 128): one no-restricted-syntax rule per file group (see ownedTableBlocks).
  ...ownedTableBlocks(),
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

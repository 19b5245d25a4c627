import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * What a page's first-load JavaScript may hold (docs/decisions/055-first-load-javascript.md).
 * Starting from every "use client" file, this follows the static imports the bundler follows
 * (type-only imports are erased, `import()` makes a chunk of its own, "use server" files become
 * action references) and refuses what belongs on the server or in a lazily loaded chunk:
 * zod and its form resolver (form schemas load on first use), the full lib/fhir entry (resource
 * schemas, builders, readers), Node built-ins and Buffer (the bundler adds a polyfill for it).
 * The browser test measures the result (every page ≤ 180 kB compressed, e2e/accessibility.spec.ts, docs/decisions/108);
 * this names the import that broke it, in a second.
 */
const ROOT = join(__dirname, "..");
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

interface Forbidden {
  test: (target: string) => boolean;
  why: string;
}
const FORBIDDEN: Forbidden[] = [
  { test: (t) => t === "zod" || t.startsWith("zod/"), why: "load a form's schema with its entry's load…Schema() (lazyZodResolver)" },
  { test: (t) => t.startsWith("@hookform/resolvers"), why: "the zod resolver: use lazyZodResolver (components/forms)" },
  { test: (t) => t === "lib/fhir/index.ts", why: "the full lib/fhir entry: import @/lib/fhir/browser" },
  { test: (t) => BUILTINS.has(t.split("/")[0]!) || t.startsWith("node:"), why: "a Node built-in" },
  { test: (t) => t.startsWith("@modelcontextprotocol/"), why: "the MCP SDK is server-only (lib/mcp, docs/decisions/095)" },
  { test: (t) => t.startsWith("@tanstack/table-core"), why: "table sorting runs on the server: SortableTable in a server page (docs/decisions/065)" },
];

function resolveFile(from: string, spec: string): string | undefined {
  const base = spec.startsWith("@/") ? join(ROOT, spec.slice(2)) : spec.startsWith(".") ? join(dirname(from), spec) : undefined;
  if (!base) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The module specifiers a file imports at run time (not type-only, not dynamic). */
function staticImports(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, false, path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specs: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes = clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) specs.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (node.isTypeOnly) continue;
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)) continue;
      specs.push(node.moduleSpecifier.text);
    }
  }
  return specs;
}

const directive = (path: string, name: string) => new RegExp(`^\\s*(?:/\\*[\\s\\S]*?\\*/\\s*|//[^\\n]*\\n\\s*)*["']${name}["']`).test(readFileSync(path, "utf8"));

/** Every forbidden import reachable from `roots`, each with the chain of files that leads to it. */
function clientViolations(roots: string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, relative(ROOT, file)];
    // An action module reaches the browser as references to the server, never as its code.
    if (chain.length > 0 && directive(file, "use server")) return;
    if (/\bBuffer\s*\./.test(readFileSync(file, "utf8").replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ""))) found.push(`${here.join(" → ")} uses Buffer (the bundler adds a polyfill)`);
    for (const spec of staticImports(file)) {
      const resolved = resolveFile(file, spec);
      const target = resolved ? relative(ROOT, resolved) : spec;
      const rule = FORBIDDEN.find((f) => f.test(target));
      if (rule) found.push(`${[...here, target].join(" → ")} (${rule.why})`);
      else if (resolved && /\.(ts|tsx)$/.test(resolved)) visit(resolved, here);
    }
  };
  for (const root of roots) visit(root, []);
  return found;
}

function clientRoots(): string[] {
  const roots: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && directive(path, "use client")) roots.push(path);
    }
  };
  walk(join(ROOT, "app"));
  walk(join(ROOT, "components"));
  return roots;
}

describe("first-load JavaScript: what client components may reach", () => {
  it("finds the client components", () => {
    expect(clientRoots().length).toBeGreaterThan(30);
  });

  it("no client component reaches zod, the resolver, the full lib/fhir entry, Node built-ins or Buffer", () => {
    expect(clientViolations(clientRoots())).toEqual([]);
  });

  // The walker itself: each rule is seen where it applies, and what the bundler leaves out is left out.
  it("sees zod behind a form schema, and the full lib/fhir entry with its Buffer", () => {
    expect(clientViolations([join(ROOT, "lib/submissions/form-schema.ts")]).join("\n")).toMatch(/lib\/submissions\/form-schema\.ts → zod \(/);
    const fhir = clientViolations([join(ROOT, "lib/fhir/index.ts")]).join("\n");
    expect(fhir).toMatch(/→ zod \(/);
    expect(fhir).toMatch(/builders\/claim\.ts uses Buffer/);
  });

  it("sees TanStack table-core behind SortableTable (sorting stays on the server)", () => {
    expect(clientViolations([join(ROOT, "components/ui/sortable-table.tsx")]).join("\n")).toMatch(/sort-rows\.ts → @tanstack\/table-core/);
    expect(clientViolations([join(ROOT, "components/ui/data-table.tsx")])).toEqual([]);
  });

  it("does not follow import() (its own chunk), type-only imports or action modules", () => {
    // lib/submissions/browser.ts loads the schema with import(); lib/authorizations/browser.ts re-exports "use server" actions.
    expect(clientViolations([join(ROOT, "lib/submissions/browser.ts"), join(ROOT, "lib/authorizations/browser.ts")])).toEqual([]);
    expect(staticImports(join(ROOT, "lib/submissions/browser.ts"))).not.toContain("./form-schema");
    expect(staticImports(join(ROOT, "lib/fhir/browser.ts"))).not.toContain("./read");
  });
});

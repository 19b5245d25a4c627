import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { SANDBOX_ENV_SCHEMA } from "@/sandbox/env";
import { areasFor, type Role } from "@/lib/auth/roles";

/**
 * Documents that cannot drift: the README, the decision records and every module's
 * README name only files, decisions and npm scripts that exist, and the README's configuration
 * table states the defaults lib/env.ts and sandbox/env.ts really apply. A newcomer must be able to
 * trust every sentence that points somewhere.
 */
const ROOT = join(__dirname, "..");

function markdownFiles(): string[] {
  const found = ["README.md"];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith(".md")) found.push(path);
    }
  };
  for (const dir of ["docs", "lib", "sandbox", "components", "app", "e2e", "scripts"]) if (existsSync(join(ROOT, dir))) walk(dir);
  return found;
}

/** A repository path as documents write them: from a top-level folder, in or out of backticks. */
const PATH = /(?<![\w./-])((?:app|lib|components|sandbox|scripts|e2e|docs|drizzle|\.ci)\/[\w.()[\]@/-]*[\w)\]])/g;

/** Whether a path named in a document exists: as written, as a module (extension or index left out), or a decision by its number. */
export function pathExists(named: string): boolean {
  let path = named;
  // A closing parenthesis that belongs to the sentence, not to a route group like app/(portal)/.
  while (path.endsWith(")") && (path.match(/\(/g)?.length ?? 0) < (path.match(/\)/g)?.length ?? 0)) path = path.slice(0, -1);
  path = path.replace(/\.$/, "");
  const candidates = [path, `${path}.ts`, `${path}.tsx`, `${path}.md`, `${path}/index.ts`];
  if (candidates.some((candidate) => existsSync(join(ROOT, candidate)))) return true;
  const decision = /^docs\/decisions\/(\d{3})$/.exec(path);
  return decision !== null && readdirSync(join(ROOT, "docs/decisions")).some((file) => file.startsWith(`${decision[1]}-`));
}

/** Placeholders and patterns, not paths: `lib/<module>`, `docs/decisions/NNN-title.md`, `e2e/*.spec.ts`. */
function isPattern(path: string): boolean {
  return /[<>*…]|NNN|\.\.\./.test(path);
}

describe("documents name only what exists", () => {
  const documents = markdownFiles();

  it("reads the README, the decisions and the module READMEs", () => {
    expect(documents).toContain("README.md");
    expect(documents.filter((d) => d.startsWith("docs/decisions/")).length).toBeGreaterThan(50);
    expect(documents).toContain("sandbox/README.md");
  });

  it("every file, folder and decision a document names exists", () => {
    const dead: string[] = [];
    for (const document of documents) {
      const text = readFileSync(join(ROOT, document), "utf8");
      for (const match of text.matchAll(PATH)) {
        // A link whose text is the path itself: `[lib/x.ts](lib/x.ts)` is read up to its "](".
        const path = (match[1] ?? "").split("](")[0] ?? "";
        if (isPattern(path) || path.startsWith("docs/unlanded/")) continue;
        if (!pathExists(path)) dead.push(`${document} names ${path}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("every relative link of a document leads to a file or folder that exists", () => {
    const dead: string[] = [];
    for (const document of documents) {
      const text = readFileSync(join(ROOT, document), "utf8");
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = (match[1] ?? "").split("#")[0] ?? "";
        if (target === "" || /^[a-z]+:/i.test(target) || isPattern(target)) continue;
        if (!existsSync(join(ROOT, dirname(document), target))) dead.push(`${document} links ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("every `npm run` a document gives is a script of package.json", () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    const unknown: string[] = [];
    for (const document of documents) {
      const text = readFileSync(join(ROOT, document), "utf8");
      for (const match of text.matchAll(/npm run ([\w:-]+)/g)) if (!scripts.includes(match[1] ?? "")) unknown.push(`${document}: npm run ${match[1]}`);
    }
    expect(unknown).toEqual([]);
  });

  it("the path check itself tells a dead path from a live one", () => {
    expect(pathExists("lib/env.ts")).toBe(true);
    expect(pathExists("lib/env")).toBe(true);
    expect(pathExists("app/(portal)")).toBe(true);
    expect(pathExists("docs/decisions/064")).toBe(true);
    expect(pathExists("lib/pipeline/states.ts")).toBe(false);
    expect(pathExists("docs/decisions/999")).toBe(false);
  });
});

describe("the configuration table (docs/configuration.md) states the real defaults", () => {
  const reference = readFileSync(join(ROOT, "docs/configuration.md"), "utf8");
  const section = reference.slice(reference.indexOf("## Configuration"));
  const end = section.indexOf("\n## ", 5);
  const table = end === -1 ? section : section.slice(0, end);
  const rows = table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, names = "", fallback = ""] = line.split("|").map((cell) => cell.trim());
      return { names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] ?? ""), fallback };
    });
  const portalDefaults = parseEnv({}) as Record<string, unknown>;
  const sandboxDefaults = SANDBOX_ENV_SCHEMA.parse({}) as Record<string, unknown>;

  it("lists each variable once", () => {
    const names = rows.flatMap((row) => row.names);
    expect(names.length).toBeGreaterThan(30);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("every variable lib/env.ts and sandbox/env.ts declare is in the table", () => {
    const listed = new Set(rows.flatMap((row) => row.names));
    const declared = [...Object.keys(parseEnvShape()), ...Object.keys(SANDBOX_ENV_SCHEMA.shape)];
    expect(declared.filter((name) => !listed.has(name) && name !== "NODE_ENV")).toEqual([]);
  });

  it("a default written as a value is the value the code applies", () => {
    const wrong: string[] = [];
    for (const row of rows) {
      const [name] = row.names;
      if (row.names.length !== 1 || name === undefined) continue;
      const written = /^`([^`]+)`( \(.*\))?$/.exec(row.fallback)?.[1];
      const none = /^—/.test(row.fallback);
      const applied = name in portalDefaults || name in parseEnvShape() ? portalDefaults[name] : sandboxDefaults[name];
      if (written !== undefined && /^[\w./:-]+$/.test(written) && applied !== undefined && String(applied) !== written) wrong.push(`${name}: README says ${written}, the code applies ${String(applied)}`);
      if (none && applied !== undefined && typeof applied !== "object") wrong.push(`${name}: README says none, the code applies ${String(applied)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("the README is what a newcomer reads in ten minutes", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");

  it("stays under 300 lines (reference parts live in docs/)", () => {
    expect(readme.split("\n").length).toBeLessThan(300);
  });

  it("its demo sign-ins table says what each role sees, as the navigation shows it", () => {
    const labels = (JSON.parse(readFileSync(join(ROOT, "lib/i18n/messages/en.json"), "utf8")) as { nav: Record<string, string> }).nav;
    const rows = readme.split("\n").filter((line) => /^\| `\w+@clinic\.example` \|/.test(line));
    expect(rows.length).toBe(5);
    const byRole: Record<string, Role> = { "front desk": "front_desk", billing: "billing", manager: "manager", administrator: "admin", prescriber: "prescriber" };
    for (const row of rows) {
      const [, , role = "", sees = ""] = row.split(" | ").map((cell) => cell.replace(/^\| /, "").trim());
      const expected = areasFor([byRole[role] ?? ("none" as Role)]).map((area) => labels[area]);
      expect(sees.replace(/ \|$/, ""), role).toBe(expected.join(", "));
    }
  });
});

describe("the decisions' index lists every decision once", () => {
  it("one row per record in docs/decisions", () => {
    const index = readFileSync(join(ROOT, "docs/decisions/README.md"), "utf8");
    const rows = [...index.matchAll(/^\| \[(\d{3})\]\((\d{3}-[\w.-]+\.md)\)/gm)].map((m) => m[2] ?? "");
    const files = readdirSync(join(ROOT, "docs/decisions")).filter((f) => /^\d{3}-.+\.md$/.test(f));
    expect(files.filter((f) => !rows.includes(f))).toEqual([]);
    expect(rows.filter((r, i) => rows.indexOf(r) !== i || !files.includes(r))).toEqual([]);
  });
});

/** The names lib/env.ts declares (its schema's keys, read from the defaults plus the optional ones). */
function parseEnvShape(): Record<string, true> {
  const source = readFileSync(join(ROOT, "lib/env.ts"), "utf8");
  const names = [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1] ?? "");
  return Object.fromEntries(names.map((name) => [name, true]));
}

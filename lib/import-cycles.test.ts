import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * No import cycle between lib modules (docs/decisions/041, docs/decisions/064): a module's code
 * (tests and test helpers left out) may import another module only if that one does not import it
 * back, directly or through others. Type-only imports are left out: they vanish when compiled and
 * cannot make a module load half-initialised.
 */
const LIB = join(__dirname);
const TEST_FILE = /(\.test\.tsx?|\/testing\/.*|\.test-support\.ts)$/;

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** Runtime imports of other lib modules: `import … from "@/lib/x"`, `export … from`, `import("@/lib/x")`. */
export function runtimeImports(text: string): string[] {
  const out: string[] = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"@\/lib\/([a-z0-9-]+)[^"]*"/g;
  for (const m of text.matchAll(statement)) {
    if (m[2]) continue; // import type / export type
    const names = m[3] ?? "";
    // `import { type A, type B } from …` imports types only.
    const braces = /^\{([^}]*)\}$/.exec(names.trim());
    if (braces && braces[1]!.split(",").map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith("type "))) continue;
    out.push(m[4]!);
  }
  for (const m of text.matchAll(/import\(\s*"@\/lib\/([a-z0-9-]+)[^"]*"\s*\)/g)) out.push(m[1]!);
  return out;
}

export function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const path of files(LIB)) {
    const rel = relative(LIB, path).split("\\").join("/");
    if (TEST_FILE.test(`/${rel}`)) continue;
    const from = rel.includes("/") ? rel.split("/")[0]! : rel.replace(/\.tsx?$/, "");
    const edges = graph.get(from) ?? new Set<string>();
    for (const to of runtimeImports(readFileSync(path, "utf8"))) if (to !== from) edges.add(to);
    graph.set(from, edges);
  }
  return graph;
}

/** Every cycle's modules (strongly connected components of more than one module, Tarjan). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe("import cycles between lib modules", () => {
  it("there are none", () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  it("finds a cycle through three modules, and none in a chain (the check itself)", () => {
    const g = (edges: [string, string][]) => {
      const m = new Map<string, Set<string>>();
      for (const [a, b] of edges) m.set(a, (m.get(a) ?? new Set()).add(b));
      return m;
    };
    expect(cycles(g([["api", "api-access"], ["api-access", "oauth"], ["oauth", "api"]]))).toEqual([["api", "api-access", "oauth"]]);
    expect(cycles(g([["api", "api-access"], ["api-access", "errors"]]))).toEqual([]);
  });

  it("reads runtime imports and leaves type-only ones out", () => {
    expect(runtimeImports('import { runApi } from "@/lib/api";\nimport type { Db } from "@/lib/db";\nimport { type X } from "@/lib/fhir";\nexport { a } from "@/lib/ids";\nconst m = import("@/lib/log");')).toEqual(["api", "ids", "log"]);
  });
});

describe("comments cite decision records", () => {
  it("no code comment cites an issue number of a tracker outside the repository, or a DESIGN.md that is not in it", () => {
    const root = join(__dirname, "..");
    const offenders = ["lib", "app", "components", "scripts", "sandbox", "e2e"]
      .flatMap((d) => files(join(root, d)))
      .filter((path) => path !== __filename && /\b[Ii]ssue #?\d+|DESIGN\.md/.test(readFileSync(path, "utf8")))
      .map((path) => relative(root, path));
    expect(offenders).toEqual([]);
  });
});

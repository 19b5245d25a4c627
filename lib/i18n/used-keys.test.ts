import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "./messages/en.json";

/**
 * Every message a page asks for by a literal key exists. A translator is bound to a namespace
 * (`const t = useTranslations("claims.form")`, `await getTranslations("nav")`); a call
 * `t("offline.toggle")` then needs `claims.form.offline.toggle` in the catalogue. Without this
 * check a misplaced key shows only at run time, as next-intl's MISSING_MESSAGE and the key's own
 * name on the page. Keys built at run time (`t(\`status.${s}\`)`) are not checked here.
 */

const ROOTS = ["app", "components", "lib"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function has(obj: unknown, key: string): boolean {
  let node: unknown = obj;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

const BINDING = /(?:const|let)\s+(\w+)\s*=\s*(?:await\s+)?(?:useTranslations|getTranslations)\(\s*"([\w.]+)"\s*\)/g;

/**
 * The literal keys a file asks its translators for, each with the namespace it is bound to. A name
 * bound twice in one file (two components, each with its own `t`) is read from each binding up to
 * the next binding of that name: the components of a file follow one another.
 */
export function literalKeys(source: string): { translator: string; key: string }[] {
  const bindings = [...source.matchAll(BINDING)].map((m) => ({ name: m[1]!, namespace: m[2]!, at: m.index! }));
  const out: { translator: string; key: string }[] = [];
  for (const [i, { name, namespace, at }] of bindings.entries()) {
    const next = bindings.slice(i + 1).find((b) => b.name === name);
    const scope = source.slice(at, next ? next.at : source.length);
    // A call of this translator (or its .rich / .markup / .raw forms) with a plain string literal.
    const call = new RegExp(`(?<![\\w.$])${name}(?:\\.(?:rich|markup|raw))?\\(\\s*"([\\w.-]+)"`, "g");
    for (const [, key] of scope.matchAll(call)) out.push({ translator: name, key: `${namespace}.${key}` });
  }
  return out;
}

describe("literal message keys", () => {
  it("reads a binding and its calls", () => {
    const sample = 'const t = useTranslations("a.b");\nconst tc = await getTranslations("c");\nt("x.y"); tc.rich("z", {}); notT("q"); t(`d.${v}`);\nfunction B() { const t = useTranslations("e"); t("f"); }';
    expect(literalKeys(sample).map((k) => k.key).sort()).toEqual(["a.b.x.y", "c.z", "e.f"]);
  });

  it("every literal key a page asks for is in the catalogue", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const root of ROOTS) {
      for (const file of sourceFiles(root)) {
        for (const { key } of literalKeys(fs.readFileSync(file, "utf8"))) {
          checked += 1;
          if (!has(en, key)) missing.push(`${file}: ${key}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(900);
    expect(missing).toEqual([]);
  });
});

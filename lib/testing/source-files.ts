import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/**
 * The screens' source files (app/ and components/, tests left out) with their text, for tests that
 * keep a kind of code in one place (one status vocabulary, one table of the platform's words).
 */
export function screenSources(): { path: string; text: string }[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".test.ts")) files.push(path);
    }
  };
  walk(join(ROOT, "app"));
  walk(join(ROOT, "components"));
  return files.map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

/** The TypeScript source files under these top-level folders (tests left out unless asked), as paths from the repository root. */
export function codeFiles(dirs: readonly string[], options: { tests?: boolean } = {}): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|mjs)$/.test(name) && (options.tests || !/\.test\.tsx?$/.test(name))) files.push(path);
    }
  };
  for (const dir of dirs) walk(join(ROOT, dir));
  return files.map((path) => path.slice(ROOT.length + 1));
}

/** A repository file's text. */
export const readSource = (path: string) => readFileSync(join(ROOT, path), "utf8");

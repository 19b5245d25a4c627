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

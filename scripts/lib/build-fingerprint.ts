import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const SOURCE_DIRS = ["app", "components", "lib", "public"];
const SOURCE_FILES = ["next.config.ts", "package-lock.json", "tsconfig.json", "postcss.config.mjs", "proxy.ts", "instrumentation.ts"];

function* walk(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

/** A hash of everything the production build depends on: a changed file means rebuild. */
export function sourceFingerprint(root: string): string {
  const hash = createHash("sha256");
  const files = [...SOURCE_DIRS.flatMap((d) => [...walk(path.join(root, d))]), ...SOURCE_FILES.map((f) => path.join(root, f))];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(root, file));
    hash.update("\0");
    hash.update(fs.readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const STAMP = ".next/cx-source-fingerprint";

export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, STAMP);
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID")) || !fs.existsSync(stamp)) return false;
  return fs.readFileSync(stamp, "utf8").trim() === sourceFingerprint(root);
}

export function recordBuild(root: string): void {
  fs.writeFileSync(path.join(root, STAMP), sourceFingerprint(root));
}

/**
 * First-load JavaScript of every page, from the production build's manifests (no browser, no server):
 *
 *   npm run build && node --import tsx scripts/first-load-js.ts [--chunks] [--json]
 *
 * A page loads the root main files (Next.js and React) and the client chunks of each segment it
 * renders (the root layout, its group's layout, the page), as its client-reference manifest lists
 * them. Each file counts once, compressed as the server sends it: gzip (Next.js's `compress`, zlib's
 * default level) and Brotli (the `.br` copy `npm start` writes and scripts/lib/static-brotli.cjs
 * sends to browsers that accept it, as Chromium does) — the second is the figure
 * e2e/accessibility.spec.ts and `npm run bench:memory` read in Chromium (docs/decisions/108).
 * `--chunks` also lists every shared chunk with the pages that load it.
 */
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";

const root = process.cwd();
const next = path.join(root, ".next");
if (!fs.existsSync(path.join(next, "BUILD_ID"))) {
  console.error("no production build in .next: run `npm run build` (or `npm start` once) first");
  process.exit(2);
}

const gzipped = new Map<string, number>();
function size(file: string): number {
  let n = gzipped.get(file);
  if (n === undefined) {
    n = zlib.gzipSync(fs.readFileSync(path.join(next, file))).length;
    gzipped.set(file, n);
  }
  return n;
}

const brotlied = new Map<string, number>();
function brSize(file: string): number {
  let n = brotlied.get(file);
  if (n === undefined) {
    const copy = path.join(next, `${file}.br`);
    n = fs.existsSync(copy)
      ? fs.statSync(copy).size
      : zlib.brotliCompressSync(fs.readFileSync(path.join(next, file)), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    brotlied.set(file, n);
  }
  return n;
}

const buildManifest = JSON.parse(fs.readFileSync(path.join(next, "build-manifest.json"), "utf8")) as { rootMainFiles: string[]; polyfillFiles: string[] };

function manifests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...manifests(full));
    else if (entry.name === "page_client-reference-manifest.js") out.push(full);
  }
  return out;
}

interface Page {
  route: string;
  files: string[];
  bytes: number;
  br: number;
}
const pages: Page[] = [];
for (const file of manifests(path.join(next, "server", "app"))) {
  const context: { self: Record<string, unknown>; globalThis?: unknown } = { self: {} };
  context.globalThis = context.self;
  vm.runInNewContext(fs.readFileSync(file, "utf8"), context);
  const all = (context.self.__RSC_MANIFEST ?? {}) as Record<string, { entryJSFiles: Record<string, string[]> }>;
  for (const [key, manifest] of Object.entries(all)) {
    const route = key.replace(/\/page$/, "").replace(/\/\([^)]+\)/g, "") || "/";
    if (route.startsWith("/_")) continue;
    // The segments this page renders: every layout on its path, then the page.
    const segments = Object.keys(manifest.entryJSFiles).filter((s) => {
      const at = s.replace(/^\[project\]\/app/, "");
      if (s === `[project]/app${key}`) return true;
      return at.endsWith("/layout") && key.startsWith(at.slice(0, -"/layout".length) + "/");
    });
    const files = new Set<string>(buildManifest.rootMainFiles);
    for (const s of segments) for (const f of manifest.entryJSFiles[s] ?? []) files.add(f);
    const list = [...files];
    pages.push({ route, files: list, bytes: list.reduce((n, f) => n + size(f), 0), br: list.reduce((n, f) => n + brSize(f), 0) });
  }
}
pages.sort((a, b) => b.bytes - a.bytes || a.route.localeCompare(b.route));

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(Object.fromEntries(pages.map((p) => [p.route, { gzip: Number(kb(p.bytes)), brotli: Number(kb(p.br)) }])), null, 2));
} else {
  console.log(`first-load JavaScript per page (kB)\n  ${"page".padEnd(36)} ${"gzip".padStart(7)} ${"brotli".padStart(7)}`);
  for (const p of pages) console.log(`  ${p.route.padEnd(36)} ${kb(p.bytes).padStart(7)} ${kb(p.br).padStart(7)}`);
}
if (process.argv.includes("--chunks")) {
  const users = new Map<string, string[]>();
  for (const p of pages) for (const f of p.files) users.set(f, [...(users.get(f) ?? []), p.route]);
  console.log(`\nchunks loaded by more than one page (gzip kB, brotli kB, pages; of ${pages.length})`);
  for (const [f, who] of [...users].filter(([, w]) => w.length > 1).sort((a, b) => b[1].length - a[1].length || size(b[0]) - size(a[0]))) {
    console.log(`  ${f.padEnd(36)} ${kb(size(f)).padStart(6)} ${kb(brSize(f)).padStart(6)}  ${who.length === pages.length ? "every page" : who.length > 6 ? `${who.length} pages` : who.join(" ")}`);
  }
}

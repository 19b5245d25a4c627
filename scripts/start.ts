/**
 * `npm start`: builds the portal when its sources changed, prepares the data directory, starts
 * the platform sandbox (unless a real platform is configured) and the portal, waits until the
 * portal answers, and prints where to go. Ctrl-C stops everything it started.
 */
import { randomBytes } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, childEnvironment, dataDir, env, listensBeyondThisMachine, localPortalUrl, shouldStartSandbox, type Env } from "@/lib/env";
import { DEMO_USERS } from "@/lib/auth";
import { buildIsCurrent, recordBuild } from "./lib/build-fingerprint";
import { precompressStatic } from "./lib/precompress";
import { startManaged, stopAll, type Managed } from "./lib/processes";
import { startSandboxProcess } from "./lib/sandbox-process";

const root = process.cwd();
/** `npm run dev`: the same start-up with `next dev` (hot reload) instead of a production build. */
const dev = process.argv.includes("--dev");
const log = (line: string) => console.log(`[start] ${line}`);

function loadEnv(): Env {
  try {
    return env();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/** A stable AUTH_SECRET for this installation, kept in the data directory (mode 0600). */
function authSecret(e: Env): string {
  if (e.AUTH_SECRET) return e.AUTH_SECRET;
  const file = path.join(dataDir(e), "auth-secret");
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, randomBytes(48).toString("base64url"), { mode: 0o600 });
    log(`created a session signing secret in ${path.relative(root, file)}`);
  }
  return fs.readFileSync(file, "utf8").trim();
}

/**
 * Builds the production portal when its sources changed (compile only: the type-check and lint run
 * in `npm test`, next.config.ts). While it builds, a line every 30 s says it is still building and
 * for how long, so a first start on a small machine does not look stuck.
 */
async function buildIfNeeded(): Promise<void> {
  if (buildIsCurrent(root)) return;
  const first = !fs.existsSync(path.join(root, ".next", "BUILD_ID"));
  log(
    first
      ? "building the portal for production (first start: about 2 minutes on 2 idle cores, longer on a busy machine; later starts skip this until the sources change)…"
      : "the sources changed: building the portal again (about 2 minutes on 2 idle cores)…",
  );
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  // Two starts in one checkout must not build into .next at the same time: flock serialises them.
  const lock = path.join(os.tmpdir(), `clinic-exchange-build-${Buffer.from(root).toString("hex").slice(-32)}.lock`);
  const useFlock = spawnSync("flock", ["--version"]).status === 0;
  const [command, args] = useFlock
    ? ["flock", [lock, process.execPath, nextBin, "build"]]
    : [process.execPath, [nextBin, "build"]];
  const started = Date.now();
  const child = spawn(command, args, {
    stdio: "inherit",
    // A first build writes no Turbopack cache: only a later build would read it (next.config.ts).
    env: childEnvironment({ NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...(first ? { CX_BUILD_CACHE: "0" } : {}) }),
  });
  const ticker = setInterval(() => log(`still building… ${Math.round((Date.now() - started) / 1000)} s`), 30_000);
  const status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  clearInterval(ticker);
  if (status !== 0) {
    console.error("[start] the build failed; see the messages above.");
    process.exit(1);
  }
  recordBuild(root);
  log(`built in ${Math.round((Date.now() - started) / 1000)} s; starting…`);
}

/** Brotli copies of the built scripts and styles, which the portal sends to browsers that take them (docs/decisions/108). */
async function brotliCopies(): Promise<void> {
  const started = Date.now();
  const { written, before, after } = await precompressStatic(root);
  if (written > 0) log(`compressed ${written} scripts and styles with Brotli (${Math.round(before / 1024)} → ${Math.round(after / 1024)} kB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The embedded database's first creation and migrations run in a short-lived process of their own:
 * PGlite's initialisation leaves about 500 MB in the process that did it (docs/decisions/100), which
 * then is not the portal. Later starts open the existing database in the portal directly.
 */
function prepareEmbeddedDatabase(e: Env): void {
  if (e.DATABASE_URL || fs.existsSync(path.join(dataDir(e), "db", "PG_VERSION"))) return;
  const where = path.relative(root, dataDir(e));
  log(`creating the embedded database in ${where.startsWith("..") ? dataDir(e) : where || "."} …`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "lib", "prepare-database.ts")], { stdio: "inherit", env: childEnvironment({}) });
  if (result.status !== 0) {
    console.error("[start] the embedded database could not be created; see the messages above.");
    process.exit(1);
  }
}

/** package.json's version and the git commit, when there is one. */
function buildVersion(): string {
  const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  return commit.status === 0 && commit.stdout.trim() ? `${version}+${commit.stdout.trim()}` : version;
}

async function waitForHealth(url: string, timeoutMs: number, portal: Managed): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (portal.child.exitCode !== null) throw new Error("the portal exited during start-up (see above)");
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the portal did not answer ${url} within ${timeoutMs / 1000} s`);
}

async function main() {
  // `--build-only`: build when the sources changed, then exit (the browser tests build before their
  // server's start-up clock runs, so a busy machine's slow build is not a start-up timeout).
  if (process.argv.includes("--build-only")) {
    await buildIfNeeded();
    await brotliCopies();
    return;
  }
  const e = loadEnv();
  fs.mkdirSync(dataDir(e), { recursive: true });
  const secret = authSecret(e);
  if (!dev) {
    await buildIfNeeded();
    await brotliCopies();
  }
  prepareEmbeddedDatabase(e);

  const running: Managed[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log("stopping…");
    await stopAll(running, e.SHUTDOWN_GRACE_MS + 5_000);
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));

  const portalEnv: NodeJS.ProcessEnv = childEnvironment({
    NODE_ENV: dev ? "development" : "production",
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_SECRET: secret,
    AUTH_TRUST_HOST: "true",
    // The portal's own handler (lib/server/shutdown.ts) drains work on SIGTERM; Next.js's would exit at once.
    NEXT_MANUAL_SIG_HANDLE: "true",
    BUILD_VERSION: e.BUILD_VERSION ?? buildVersion(),
  });

  let platformLine = `platform: ${e.PLATFORM_BASE_URL} (${e.PLATFORM_ENV})`;
  const embedded = shouldStartSandbox(e);
  if (embedded) {
    try {
      const sandbox = await startSandboxProcess(root, e);
      running.push(sandbox.process);
      Object.assign(portalEnv, sandbox.portalEnv, { PLATFORM_EMBEDDED_SANDBOX: "true" });
      platformLine = `platform: the sandbox at ${sandbox.url}, data in ${path.relative(root, sandbox.dataDir) || "."} (set PLATFORM_BASE_URL to use a real platform)`;
    } catch (error) {
      console.error(`[start] ${(error as Error).message}`);
      await shutdown(1);
      return;
    }
  }

  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  // The preload records each connection's own address, so X-Forwarded-For is believed only from TRUSTED_PROXIES.
  const peerPreload = path.join(root, "scripts", "lib", "peer-address.cjs");
  // Built scripts and styles in Brotli to the browsers that accept it (docs/decisions/108).
  const brotliPreload = dev ? [] : ["--require", path.join(root, "scripts", "lib", "static-brotli.cjs")];
  // A smaller young generation (V8's default lets it grow to 3 × 16 MB) and two malloc arenas instead
  // of one per thread: the same work in less resident memory (docs/decisions/100, npm run bench:memory).
  const memoryFlags = dev ? [] : ["--max-semi-space-size=4"];
  // The embedded database is PostgreSQL compiled to WebAssembly. V8 compiles it at once with its
  // baseline compiler (Liftoff) and then again, function by function, with its optimising one
  // (TurboFan), keeping both: about 60 MB more resident, and on 2 busy cores the background
  // recompiling cost more time than it saved for the portal's short queries (docs/decisions/109).
  // With the database in the same process, V8 also keeps its heap small (`--optimize-for-size`:
  // collects sooner, grows the heap less): 316 → 268 MB after bench:memory's walk. Not on
  // PostgreSQL, where the portal is under 300 MB without it and the speed is kept.
  if (!dev && !e.DATABASE_URL) memoryFlags.push("--liftoff-only", "--optimize-for-size");
  portalEnv.MALLOC_ARENA_MAX ??= "2";
  const portal = startManaged("portal", process.execPath, [...memoryFlags, "--require", peerPreload, ...brotliPreload, nextBin, dev ? "dev" : "start", "-p", String(e.PORT), "-H", e.HOST], { stdio: "inherit", env: portalEnv });
  running.push(portal);
  for (const m of running) {
    void m.exited.then((code) => {
      if (!stopping) {
        console.error(`[start] the ${m.name} stopped unexpectedly (exit ${code}); stopping everything.`);
        void shutdown(code || 1);
      }
    });
  }

  // HOST (default 127.0.0.1): the portal answers this machine only unless told otherwise.
  const url = localPortalUrl(e);
  try {
    await waitForHealth(`${url}/api/health`, 120_000, portal);
  } catch (error) {
    console.error(`[start] ${(error as Error).message}`);
    await shutdown(1);
    return;
  }
  const reach = listensBeyondThisMachine(e) ? `listening on ${e.HOST}: reachable from the network` : "this machine only (set HOST=0.0.0.0 to open it to the network)";
  const lines = ["", `  Clinic Exchange is running at ${url} (${reach})`, `  ${platformLine}`];
  if (embedded) {
    const password = e.DEMO_PASSWORD === "demo-pass-2026" ? "demo-pass-2026" : "the value of DEMO_PASSWORD";
    lines.push("", `  Demo sign-ins (password: ${password}):`, ...DEMO_USERS.map((u) => `    ${u.email.padEnd(28)} ${u.roles.join(", ")}`));
  }
  lines.push("", "  Press Ctrl-C to stop.", "");
  console.log(lines.join("\n"));
}

void main();

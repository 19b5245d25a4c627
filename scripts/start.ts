/**
 * `npm start`: builds the portal when its sources changed, prepares the data directory, starts
 * the platform sandbox (unless a real platform is configured) and the portal, waits until the
 * portal answers, and prints where to go. Ctrl-C stops everything it started.
 */
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, childEnvironment, dataDir, env, listensBeyondThisMachine, localPortalUrl, shouldStartSandbox, type Env } from "@/lib/env";
import { DEMO_USERS } from "@/lib/auth";
import { buildIsCurrent, recordBuild } from "./lib/build-fingerprint";
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

function buildIfNeeded() {
  if (buildIsCurrent(root)) return;
  log("building the portal (the first build takes a minute or two)…");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  // Two starts in one checkout must not build into .next at the same time: flock serialises them.
  const lock = path.join(os.tmpdir(), `clinic-exchange-build-${Buffer.from(root).toString("hex").slice(-32)}.lock`);
  const useFlock = spawnSync("flock", ["--version"]).status === 0;
  const [command, args] = useFlock
    ? ["flock", [lock, process.execPath, nextBin, "build"]]
    : [process.execPath, [nextBin, "build"]];
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: childEnvironment({ NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }),
  });
  if (result.status !== 0) {
    console.error("[start] the build failed; see the messages above.");
    process.exit(1);
  }
  recordBuild(root);
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
    buildIfNeeded();
    return;
  }
  const e = loadEnv();
  fs.mkdirSync(dataDir(e), { recursive: true });
  const secret = authSecret(e);
  if (!dev) buildIfNeeded();

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
  const portal = startManaged("portal", process.execPath, ["--require", peerPreload, nextBin, dev ? "dev" : "start", "-p", String(e.PORT), "-H", e.HOST], { stdio: "inherit", env: portalEnv });
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

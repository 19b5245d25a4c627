/**
 * Portal instances for the scale-out test and the capacity bench: ONE production build (built
 * only when the sources changed, as `npm start` does), the sandbox, and N `next start` processes
 * on one PostgreSQL database (or PGlite for one), each in its own process group so a test can
 * SIGTERM or kill -9 it. Ports come from the caller.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { childEnvironment } from "@/lib/env";
import { buildIsCurrent, recordBuild } from "./build-fingerprint";
import { startSandboxProcess, type SandboxRun } from "./sandbox-process";

export const root = path.resolve(__dirname, "..", "..");

/** Builds the portal once, unless the build is current (the browser tests' build is reused). */
export function ensureBuild(log: (line: string) => void): { built: boolean; ms: number } {
  const started = performance.now();
  if (buildIsCurrent(root)) return { built: false, ms: 0 };
  log("building the portal once for every instance…");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const lock = path.join(os.tmpdir(), `clinic-exchange-build-${Buffer.from(root).toString("hex").slice(-32)}.lock`);
  const result = spawnSync("flock", [lock, process.execPath, nextBin, "build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: childEnvironment({ NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }),
  });
  if (result.status !== 0) throw new Error("the portal build failed");
  recordBuild(root);
  return { built: true, ms: Math.round(performance.now() - started) };
}

/** A throw-away database next to TEST_DATABASE_URL's; dropped by the returned function. */
export async function throwAwayDatabase(baseUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function startSandbox(sandboxPort: number, webhookPort: number, dir: string): Promise<SandboxRun> {
  process.env.SANDBOX_PORT = String(sandboxPort);
  process.env.SANDBOX_DATA_DIR = dir;
  process.env.SANDBOX_WEBHOOK_URL = `http://127.0.0.1:${webhookPort}/api/webhooks/platform`;
  return startSandboxProcess(root, { PORT: webhookPort, PLATFORM_PROTOCOL: "rest" });
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

export interface InstanceOptions {
  name: string;
  port: number;
  /** PostgreSQL URL, or undefined for PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  platformEnv: Record<string, string>;
  /** The URL every instance answers as (the JWT audience of the exchange API). */
  portalUrl: string;
  extraEnv?: Record<string, string>;
}

export function startInstance(o: InstanceOptions): Instance {
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const peerPreload = path.join(root, "scripts", "lib", "peer-address.cjs");
  fs.mkdirSync(o.dataDir, { recursive: true });
  const env = childEnvironment({
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_SECRET: "scale-out-test-secret-scale-out-test-secret-0123456789",
    AUTH_TRUST_HOST: "true",
    NEXT_MANUAL_SIG_HANDLE: "true",
    PORT: String(o.port),
    DATA_DIR: o.dataDir,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    PORTAL_URL: o.portalUrl,
    PLATFORM_EMBEDDED_SANDBOX: "true",
    LOG_FORMAT: "json",
    LOG_LEVEL: "warn",
    EXCHANGE_API_RATE_PER_MINUTE: "100000",
    ...o.platformEnv,
    ...o.extraEnv,
  });
  if (!o.databaseUrl) delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--require", peerPreload, nextBin, "start", "-p", String(o.port), "-H", "127.0.0.1"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (d: Buffer) => {
    for (const line of d.toString().split("\n")) if (line.trim()) output.push(line);
    if (output.length > 2_000) output.splice(0, output.length - 2_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { name: o.name, port: o.port, url: `http://127.0.0.1:${o.port}`, child, output, exited };
}

export async function waitHealthy(instance: Instance, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (instance.child.exitCode !== null) throw new Error(`${instance.name} exited during start-up:\n${instance.output.slice(-20).join("\n")}`);
    try {
      const r = await fetch(`${instance.url}/api/ready`, { signal: AbortSignal.timeout(2_000) });
      if (r.ok) return Math.round(performance.now() - started);
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${instance.name} not ready within ${timeoutMs} ms`);
}

/** Sends a signal to the instance's process group (next start and its workers). */
export function signal(instance: Instance, sig: NodeJS.Signals): void {
  try {
    process.kill(-instance.child.pid!, sig);
  } catch {
    // already gone
  }
}

export async function stopInstance(instance: Instance, timeoutMs = 20_000): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  signal(instance, "SIGTERM");
  const done = await Promise.race([instance.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs))]);
  if (!done) signal(instance, "SIGKILL");
}

/** The pids of the instance's process tree (next start may serve from a child process). */
export function treePids(instance: Instance): number[] {
  const pids = [instance.child.pid!];
  for (const dir of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(dir)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${dir}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (pids.includes(ppid)) pids.push(Number(dir));
    } catch {
      // gone
    }
  }
  return pids;
}

/** Resident memory of the instance's process tree (kB → MB), from /proc. */
export function residentMb(instance: Instance): number {
  const pids = treePids(instance);
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024);
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Drops the sandbox's request and webhook-attempt lines from this process's output (thousands in a drain). */
export function quietSandbox(): void {
  const original = console.log.bind(console);
  console.log = (...args: unknown[]) => {
    if (typeof args[0] === "string" && /^\[sandbox\] (POST|GET|PUT|DELETE|webhook) /.test(args[0])) return;
    original(...args);
  };
}

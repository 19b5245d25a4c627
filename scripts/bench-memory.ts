/**
 * The portal's memory after a walk through its pages (docs/decisions/100):
 *
 *   npm run bench:memory -- [--database-url postgres://…] [--port 3810] [--rounds 2] [--keep-data]
 *
 * Starts the production portal as `npm start` does (scripts/start.ts, which builds first when the
 * sources changed) with a fresh data directory under the system's temp folder (and, with
 * --database-url or DATABASE_URL, that PostgreSQL database instead of the embedded PGlite), then
 * signs in as the four demo roles in Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH) and
 * opens every page each role may open, in English and in Arabic, --rounds times (a detail page
 * through the first record its list shows). It prints, after the start and after the walk, the
 * resident memory (now and peak) of every process the start runs — the portal (next-server), the
 * sandbox of the exchange, the start script itself — and the portal's V8 heap and external memory
 * (its own /api/metrics, with a metrics token made by the admin command line), then the first-load
 * JavaScript of each page as Chromium received it (compressed bytes, as e2e/accessibility.spec.ts).
 *
 * `--heap-snapshot`: the portal runs with `--heapsnapshot-signal=SIGUSR2` and writes a V8 heap
 * snapshot after the walk (in the data directory, which is then kept); `node --import tsx
 * scripts/heap-summary.ts <file>` says what the heap holds (docs/decisions/109).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";

function arg(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const hit = process.argv[i]!;
  return hit.includes("=") ? hit.slice(hit.indexOf("=") + 1) : process.argv[i + 1];
}

const root = process.cwd();
const port = Number(arg("port") ?? process.env.PORT ?? 3810);
const sandboxPort = Number(arg("sandbox-port") ?? port + 6000);
const rounds = Math.max(1, Number(arg("rounds") ?? 2));
const databaseUrl = arg("database-url") ?? process.env.DATABASE_URL;
const base = `http://localhost:${port}`;
const heapSnapshot = process.argv.includes("--heap-snapshot");
const PASSWORD = process.env.DEMO_PASSWORD ?? "demo-pass-2026";

const ROLES = {
  frontDesk: "frontdesk@clinic.example",
  billing: "billing@clinic.example",
  manager: "manager@clinic.example",
  admin: "admin@clinic.example",
} as const;
type RoleName = keyof typeof ROLES;

/** The pages of the accessibility walk (e2e/accessibility.spec.ts), each with a role that may open it. */
const PAGES: { path: string; role: RoleName; from?: { list: string; links: RegExp[] } }[] = [
  { path: "/patients", role: "frontDesk" },
  { path: "/patients/new", role: "frontDesk" },
  { path: "/patients/[id]", role: "frontDesk", from: { list: "/patients?q=1000000001", links: [/^\/patients\/[0-9a-f-]{36}$/] } },
  { path: "/patients/[id]/edit", role: "frontDesk", from: { list: "/patients?q=1000000001", links: [/^\/patients\/[0-9a-f-]{36}$/, /^\/patients\/[0-9a-f-]{36}\/edit$/] } },
  { path: "/eligibility", role: "frontDesk" },
  { path: "/authorizations", role: "frontDesk" },
  { path: "/authorizations/new", role: "frontDesk" },
  { path: "/visits", role: "frontDesk" },
  { path: "/visits/new", role: "frontDesk" },
  { path: "/claims", role: "billing" },
  { path: "/claims/new", role: "billing" },
  { path: "/claims/work-queue", role: "billing" },
  { path: "/claims/reconcile", role: "billing" },
  { path: "/information-requests", role: "billing" },
  { path: "/payments", role: "billing" },
  { path: "/dashboard", role: "manager" },
  { path: "/dashboard/live", role: "manager" },
  { path: "/settings", role: "admin" },
  { path: "/settings/api-access", role: "admin" },
  { path: "/settings/gateway-tokens", role: "admin" },
  { path: "/settings/organization-keys", role: "admin" },
  { path: "/settings/system-status", role: "admin" },
  { path: "/settings/insurers", role: "admin" },
  { path: "/settings/terminology", role: "admin" },
  { path: "/audit", role: "admin" },
];

interface ProcessMemory {
  pid: number;
  name: string;
  rssKb: number;
  peakKb: number;
}

/** The process and every descendant, with resident memory now (VmRSS) and at its peak (VmHWM). */
function processTree(rootPid: number): ProcessMemory[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process ended meanwhile.
    }
  }
  const inTree = (pid: number): boolean => pid === rootPid || (parents.has(pid) && pid !== 1 && inTree(parents.get(pid)!));
  const out: ProcessMemory[] = [];
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      const name = /next-server/.test(cmd.join(" ")) || cmd.some((c) => c.endsWith("next/dist/bin/next"))
        ? "portal (next-server)"
        : cmd.some((c) => c.includes("scripts/start.ts"))
          ? "start script"
          : cmd.some((c) => c.includes("sandbox"))
            ? "exchange sandbox"
            : cmd.slice(0, 3).join(" ").slice(0, 40);
      if (kb("VmRSS") > 0) out.push({ pid, name, rssKb: kb("VmRSS"), peakKb: kb("VmHWM") });
    } catch {
      // Gone.
    }
  }
  return out.sort((a, b) => b.rssKb - a.rssKb);
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function portalHeap(token: string): Promise<string> {
  let response: Response | undefined;
  let problem = "";
  // Twice: a kept-alive connection the server has just closed fails the first request ("other side closed").
  for (let attempt = 0; attempt < 2 && !response; attempt++) {
    try {
      response = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      problem = `${(error as Error).message}${cause ? `, ${cause}` : ""}`;
    }
  }
  if (!response) return `(the metrics could not be read: ${problem})`;
  if (!response.ok) return `(metrics answered ${response.status})`;
  const text = await response.text();
  const value = (name: string) => Number(new RegExp(`^cx_${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, "m").exec(text)?.[1] ?? NaN);
  const m = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
  return `V8 heap used ${m(value("nodejs_heap_size_used_bytes"))} of ${m(value("nodejs_heap_size_total_bytes"))}, external ${m(value("nodejs_external_memory_bytes"))}`;
}

function report(label: string, rootPid: number, heap: string) {
  const tree = processTree(rootPid);
  const total = tree.reduce((n, p) => n + p.rssKb, 0);
  console.log(`\n${label}`);
  for (const p of tree) console.log(`  ${p.name.padEnd(24)} pid ${String(p.pid).padEnd(8)} RSS ${mb(p.rssKb).padStart(7)}   peak ${mb(p.peakKb).padStart(7)}`);
  console.log(`  ${"all processes".padEnd(24)} ${" ".repeat(13)} RSS ${mb(total).padStart(7)}`);
  console.log(`  portal: ${heap}`);
}

async function waitForHealth(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // Not yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the portal did not answer ${base}/api/health in ${timeoutMs / 1000} s`);
}

async function signIn(page: Page, email: string) {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel(/work email/i).fill(email);
  await page.getByLabel(/^password$/i).fill(PASSWORD);
  await page.getByRole("button", { name: /^sign in$/i }).click();
  await page.getByTestId("current-user").waitFor();
}

async function main() {
  // Chromium first: without it there is nothing to measure, and no portal to stop.
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cx-bench-memory-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    DATA_DIR: dataDir,
    NODE_ENV: "production",
  };
  if (heapSnapshot) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --heapsnapshot-signal=SIGUSR2`.trim();
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  console.log(`bench:memory — ${databaseUrl ? `PostgreSQL (${new URL(databaseUrl).pathname.slice(1)})` : "embedded PGlite"}, data in ${dataDir}, ${rounds} round(s) of the walk`);
  const start = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const logFile = path.join(dataDir, "start.log");
  const log = fs.createWriteStream(logFile);
  start.stdout!.pipe(log);
  start.stderr!.pipe(log);
  const stop = async () => {
    if (start.exitCode !== null) return;
    const exited = new Promise((r) => start.once("exit", r));
    start.kill("SIGTERM");
    const timer = setTimeout(() => {
      try {
        process.kill(-start.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, 30_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForHealth(15 * 60_000);
    await new Promise((r) => setTimeout(r, 3000));
    const token = (
      JSON.parse(
        execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "metrics-token:create", "--json"], { cwd: root, env, encoding: "utf8" }),
      ) as { token: string }
    ).token;
    report("after the start", start.pid!, await portalHeap(token));

    const firstLoad = new Map<string, number>();
    const t0 = Date.now();
    let opened = 0;
    for (let round = 0; round < rounds; round++) {
      for (const role of Object.keys(ROLES) as RoleName[]) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await signIn(page, ROLES[role]);
        for (const lang of ["en", "ar"] as const) {
          await context.addCookies([{ name: "cx_locale", value: lang, domain: "localhost", path: "/" }]);
          for (const target of PAGES.filter((p) => p.role === role)) {
            let at: string | undefined = target.path;
            if (target.from) {
              at = target.from.list;
              for (const link of target.from.links) {
                await page.goto(`${base}${at}`);
                const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
                at = hrefs.find((h) => link.test(h.split("?")[0]!));
                if (!at) break;
              }
              if (!at) continue;
            }
            // A fresh page each time: the first-load JavaScript counts every script of a cold load.
            const fresh = await context.newPage();
            const response = await fresh.goto(`${base}${at}`);
            if (!response?.ok()) throw new Error(`${target.path} [${lang}] answered ${response?.status()}`);
            await fresh.waitForLoadState("networkidle").catch(() => undefined);
            const js = await fresh.evaluate(() =>
              (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
                .filter((r) => r.initiatorType === "script" || r.name.endsWith(".js"))
                .reduce((a, r) => a + r.encodedBodySize, 0),
            );
            if (lang === "en" && round === 0) firstLoad.set(target.path, js);
            await fresh.close();
            opened++;
          }
        }
        await context.close();
      }
    }
    console.log(`\nwalked ${opened} page loads as 4 roles in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    await new Promise((r) => setTimeout(r, 5000));
    report("after the walk", start.pid!, await portalHeap(token));
    if (heapSnapshot) {
      const portal = processTree(start.pid!).find((p) => p.name.startsWith("portal"));
      if (portal) {
        const before = new Set(fs.readdirSync(root));
        process.kill(portal.pid, "SIGUSR2");
        // V8 writes Heap.<date>.<pid>.<n>.heapsnapshot into the portal's working directory.
        let file: string | undefined;
        for (let i = 0; i < 240 && !file; i++) {
          await new Promise((r) => setTimeout(r, 1000));
          const found = fs.readdirSync(root).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
          if (found) {
            // V8 creates the file first and writes it when the snapshot is taken: done when it stops growing.
            const size = fs.statSync(path.join(root, found)).size;
            await new Promise((r) => setTimeout(r, 5000));
            if (size > 0 && fs.statSync(path.join(root, found)).size === size) file = found;
          }
        }
        if (file) {
          fs.renameSync(path.join(root, file), path.join(dataDir, "portal.heapsnapshot"));
          console.log(`  heap snapshot: ${path.join(dataDir, "portal.heapsnapshot")}`);
        } else console.log("  (no heap snapshot appeared in 4 minutes)");
      }
    }

    console.log("\nfirst-load JavaScript (compressed, English, as Chromium received it)");
    for (const [page, bytes] of [...firstLoad].sort((a, b) => b[1] - a[1])) console.log(`  ${page.padEnd(32)} ${(bytes / 1024).toFixed(1).padStart(7)} kB`);
  } catch (error) {
    console.error(`bench:memory failed: ${(error as Error).message} (the start's output: ${logFile})`);
    process.exitCode = 1;
  } finally {
    await browser.close();
    await stop();
    if (!process.argv.includes("--keep-data") && !heapSnapshot && !process.exitCode) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:memory failed: ${(error as Error).message}`);
  process.exit(1);
});

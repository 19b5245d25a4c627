import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { leaseDue, releaseLeases, submit } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { buildClaim, startTestSandbox, tempDir } from "@/lib/pipeline/testing/harness";

/**
 * SIGTERM to a portal process in the middle of sending a batch through a slowed platform: the
 * calls in flight finish, the leases are handed back, the process exits 0. Prints the figures.
 */
describe("graceful shutdown", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  async function run(graceMs: number) {
    const dir = tempDir("cx-shutdown-");
    const seed = await openDatabase({ kind: "pglite", dataDir: dir });
    await runMigrations(seed);
    for (let i = 0; i < 10; i++) {
      await submit({ db: seed.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "36415", price: 15 + i }] }) });
    }
    await seed.close();
    const sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    cleanups.push(() => sb.close());
    // Each platform call takes 1.5 s: SIGTERM surely lands while calls are in flight.
    await sb.setFaults({ latencyMs: 1500 });

    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "testing", "shutdown-child.ts")], {
      cwd: path.resolve(__dirname, "..", ".."),
      env: { ...process.env, CX_PGLITE_DIR: dir, CX_PLATFORM_CONFIG: JSON.stringify(sb.config), CX_CONCURRENCY: "4", SHUTDOWN_GRACE_MS: String(graceMs), LOG_FORMAT: "json", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (!/busy \d+/.test(stdout)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`child never got busy: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const leasedAtSignal = Number(/busy (\d+)/.exec(stdout)![1]);
    const signalled = performance.now();
    child.kill("SIGTERM");
    const code = await exited;
    const exitMs = performance.now() - signalled;

    expect(code, stderr).toBe(0);
    const lines = stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const report = lines.find((l) => l.component === "shutdown" && l.msg === "stopped");
    expect(report, stdout).toBeDefined();

    const after = await openDatabase({ kind: "pglite", dataDir: dir });
    cleanups.push(() => after.close());
    const rows = await after.query<{ status: string; lease_owner: string | null }>("select status, lease_owner from submissions");
    const sent = rows.filter((r) => r.status !== "queued").length;
    const stillLeased = rows.filter((r) => r.lease_owner !== null).length;
    console.log(
      `[shutdown] grace ${graceMs} ms — leased at SIGTERM: ${leasedAtSignal}; in flight: ${report!.inFlight}, finished: ${sent} (aborted: ${report!.inFlightAborted}); ` +
        `leases released: ${report!.leasesReleased}, still leased: ${stillLeased}; streams closed: ${report!.streamsClosed}; ` +
        `shutdown took ${report!.ms} ms, time to exit ${exitMs.toFixed(0)} ms`,
    );
    return { report: report!, sent, stillLeased, queued: rows.filter((r) => r.status === "queued").length };
  }

  it("finishes in-flight platform calls, releases its leases and exits 0", async () => {
    const { report, sent, stillLeased, queued } = await run(10_000);
    expect(report.inFlightAborted).toBe(false);
    expect(Number(report.inFlight)).toBeGreaterThan(0);
    // Every call in flight at SIGTERM was answered and applied; nothing new was started.
    expect(sent).toBe(Number(report.inFlight));
    expect(stillLeased).toBe(0);
    expect(queued).toBe(10 - sent);
  }, 120_000);

  it("when the grace runs out, aborts the calls and still hands every lease back", async () => {
    const { report, sent, stillLeased } = await run(300);
    expect(report.inFlightAborted).toBe(true);
    expect(sent).toBe(0);
    expect(stillLeased).toBe(0);
  }, 120_000);

  it.each(testDatabases())("releaseLeases hands back exactly the rows one owner holds ($name)", async (target) => {
    const database = await target.open();
    try {
      for (let i = 0; i < 6; i++) await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "36415", price: 15 }] }) });
      const now = new Date();
      expect(await leaseDue(database.db, "a", now, 60_000, 4)).toHaveLength(4);
      expect(await leaseDue(database.db, "b", now, 60_000, 4)).toHaveLength(2);
      expect(await releaseLeases(database.db, "a")).toBe(4);
      const owners = await database.query<{ lease_owner: string | null }>("select lease_owner from submissions");
      expect(owners.filter((r) => r.lease_owner === "b")).toHaveLength(2);
      expect(owners.filter((r) => r.lease_owner === null)).toHaveLength(4);
      // Released rows are due at once: another worker takes them without waiting for the lease.
      expect(await leaseDue(database.db, "c", new Date(), 60_000, 10)).toHaveLength(4);
    } finally {
      await database.dispose();
    }
  });
});

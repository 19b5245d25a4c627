/**
 * The staff's Submit with a slow exchange (docs/decisions/124): the time of the form's
 * submit (`submitForm`, as the screens call it) while the sandbox answers every request after a
 * delay, for patients whose eligibility was never checked (the case that used to wait on the
 * exchange). Prints n, p50, p95 and max in ms; timing never fails the script.
 *
 *   node --import tsx scripts/bench-submit.ts [--n 12] [--latency-ms 5000]
 *
 * The delay is the sandbox's fault knob (`PUT /_admin/faults {"latencyMs": …}`, sandbox/faults.ts),
 * applied to every platform route and the token endpoint. Real parts: PGlite in memory with the
 * migrations, the sandbox over mutual TLS, the portal's platform client.
 */
// The owner reads boot hands down (the scrubber's payer filing windows among them): this process queues or sends itself.
import "@/lib/server/testing/owner-reads";
import { ensureDemoCatalogue } from "@/lib/terminology";
import type { Caller } from "@/lib/audit";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { createPlatformClient } from "@/lib/platform";
import { submitForm, type ServiceDeps } from "@/lib/submissions";
import { professionalCare } from "@/lib/submissions/testing";
import { demoFormPatient } from "@/lib/submissions/testing";
import { startTestSandbox, waitFor } from "@/lib/pipeline/testing/harness";
import { startOutboxWorker } from "@/lib/submissions";
import { preSendEligibility } from "@/lib/eligibility";
import { getSubmission } from "@/lib/submissions";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

async function main() {
  const n = arg("n", 12);
  const latencyMs = arg("latency-ms", 5000);
  const handle = await startTestSandbox({ conformance: "strict" });
  const database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  const db = database.db;
  const client = createPlatformClient(handle.config, { db });
  const caller: Caller = { actor: { kind: "user", id: "bench", email: "billing@clinic.example", roles: ["billing"] } };
  await ensureDemoCatalogue(db);
  const care = await professionalCare(db);
  // The demo patients in turn, none ever checked: each submit is one whose eligibility needs a fresh check.
  const nationalIds = ["1000000001", "1000000002", "1000000003", "1048573628", "2087654311", "1122334459"];
  const day = new Date().toISOString().slice(0, 10);
  await handle.setFaults({ latencyMs });
  // As the screens call it (lib/claims, lib/authorizations actions): no eligibility step in the submit
  // since decision 124 — the outbox checks before sending. Before it, the deps carried
  // `refreshEligibility` (the check, made inside the request): p50 5564 ms, p95 10990 ms here.
  const deps: ServiceDeps = { db, providerOrgId: handle.config.providerOrgId };
  const samples: number[] = [];
  // The outbox runs meanwhile, as in the portal: it checks each claim's eligibility (slowly) and sends it.
  const check = preSendEligibility({ db, providerOrgId: handle.config.providerOrgId, maxAgeHours: 24, warn: () => undefined });
  const worker = startOutboxWorker({ db, client, pollMs: 50, leaseMs: 60_000, maxAttempts: 3, backoff: { baseMs: 100, maxMs: 1000, jitter: 0.5 }, log: () => undefined, preSendEligibility: check });
  const ids: { id: string; at: number }[] = [];
  let leftMs: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const who = await demoFormPatient(db, nationalIds[i % nationalIds.length]!);
      const form = { use: "claim", ...who, ...care, diagnoses: ["M54.5"], procedures: [], items: [{ code: "99213", servicedDate: day, quantity: "1", unitPrice: "250" }], attachmentIds: [] };
      const started = performance.now();
      const result = await submitForm(deps, caller, form, undefined, { scrub: { acknowledgeWarnings: true } });
      samples.push(performance.now() - started);
      if (result.ok) ids.push({ id: result.id, at: started });
      else if (result.error !== "scrub") console.error(`submit ${i}: ${JSON.stringify(result)}`);
    }
    // How long each claim took to leave the outbox (sent, or stopped before sending) — background time, not the staff's.
    leftMs = await waitFor(async () => {
      const rows = await Promise.all(ids.map(async (x) => ({ ...x, row: await getSubmission(db, x.id) })));
      return rows.every((r) => r.row && r.row.status !== "queued") ? rows.map((r) => r.row!.updatedAt.getTime() - (performance.timeOrigin + r.at)) : undefined;
    }, 600_000, "the outbox to send every claim");
  } finally {
    await worker.stop(5_000);
    await client.close();
    await handle.close();
    await database.close();
  }
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`submit with the exchange answering after ${latencyMs} ms: n=${n} p50=${percentile(sorted, 50).toFixed(0)} ms p95=${percentile(sorted, 95).toFixed(0)} ms max=${(sorted.at(-1) ?? NaN).toFixed(0)} ms`);
  const left = [...leftMs].sort((a, b) => a - b);
  console.log(`submit → left the outbox (background): n=${left.length} p50=${percentile(left, 50).toFixed(0)} ms p95=${percentile(left, 95).toFixed(0)} ms`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

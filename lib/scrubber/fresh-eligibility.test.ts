import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { seedDemoContracts } from "@/lib/contracts";
import type { Database } from "@/lib/db";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { eligibilityChecks, submissionEvents, submissions } from "@/lib/db/schema";
import { preSendEligibility } from "@/lib/eligibility";
import { startOutboxWorker, type OutboxWorker, type PreSendEligibility } from "@/lib/submissions";
import { waitFor } from "@/lib/pipeline/testing/harness";
import { addCoverage, registerPatient, seedDemoPatients } from "@/lib/patients";
import { createPlatformClient, type PlatformClient, type PlatformConfig } from "@/lib/platform";
import { sandboxConnection } from "@/lib/platform/testing";
import { submitBatch } from "@/lib/claims/service";
import { saveDraft, submitForm, type ServiceDeps } from "@/lib/submissions";
import { demoFormPatient, professionalCare } from "@/lib/submissions/testing";
import { startSandbox } from "@/sandbox";

/*
 * A fresh eligibility check before a claim is SENT (docs/decisions/090, 124), against the REAL
 * sandbox with the portal's real platform client and the real outbox worker: the submit asks the
 * exchange nothing (it queues at once); the outbox checks a patient never checked exactly once
 * and the scrubber's eligibility rules read that answer (a lapsed coverage, a category the plan
 * lacks: stopped before sending, `rejected` with the reason); a recent answer sends no check; a
 * check the exchange does not answer lets the claim go with a note. And the coverage's class
 * prices the claim from the contract's class row (docs/decisions/089).
 */
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dataDir: string;
let database: Database;
let client: PlatformClient;
let deadClient: PlatformClient;
let config: PlatformConfig;
let care: Awaited<ReturnType<typeof professionalCare>>;
const billing: Caller = { actor: { kind: "user", id: "staff-billing", email: "billing@clinic.example", roles: ["billing"] }, userId: undefined };
const day = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fresh-eligibility-"));
  sandbox = await startSandbox({ port: 0, dataDir, quiet: true, adjudicationDelayMs: 60_000 });
  config = sandboxConnection(sandbox).config;
  database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  client = createPlatformClient(config, { db: database.db });
  // Nothing listens on port 9 of this machine: the platform is out of reach.
  deadClient = createPlatformClient({ ...config, baseUrl: "https://127.0.0.1:9/fhir", tokenUrl: "https://127.0.0.1:9/oauth/token", timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 } }, { db: database.db });
  care = await professionalCare(database.db);
  await seedDemoPatients(database.db);
  if (!(await seedDemoContracts(database.db))) throw new Error("demo contracts not imported");
}, 120_000);

afterAll(async () => {
  await client?.close();
  await deadClient?.close();
  await sandbox?.close();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const deps = (): ServiceDeps => ({ db: database.db, providerOrgId: config.providerOrgId });
/** The outbox as the process runs it, with the eligibility module's pre-send check (optionally through another port). */
function outbox(options: { maxAgeHours?: number; checkWith?: PlatformClient } = {}): OutboxWorker {
  const check = preSendEligibility({ db: database.db, providerOrgId: config.providerOrgId, maxAgeHours: options.maxAgeHours ?? 24, warn: () => undefined });
  const preSend: PreSendEligibility = (queued, port) => check(queued, options.checkWith ?? port);
  return startOutboxWorker({ db: database.db, client, pollMs: 25, leaseMs: 15_000, maxAttempts: 3, backoff: { baseMs: 20, maxMs: 100, jitter: 0.5 }, log: () => undefined, preSendEligibility: preSend });
}
/** Runs an outbox until every given submission has left `queued`; their rows. */
async function sendAll(ids: string[], options: Parameters<typeof outbox>[0] = {}) {
  const worker = outbox(options);
  try {
    return await waitFor(async () => {
      const rows = await Promise.all(ids.map(async (id) => (await database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!));
      return rows.every((r) => r.status !== "queued") ? rows : undefined;
    }, 30_000, "the outbox to take the claims");
  } finally {
    await worker.stop(5_000);
  }
}
const notesOf = async (id: string) =>
  (await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, id))).flatMap((e) => (typeof e.detail?.note === "string" ? [e.detail.note] : []));
const claim = (who: { patientId: string; coverageId: string }, items: { code: string; unitPrice: string }[]) => ({
  use: "claim",
  ...who,
  ...care,
  diagnoses: ["M54.5"],
  procedures: [],
  items: items.map((i) => ({ ...i, servicedDate: day, quantity: "1" })),
  attachmentIds: [],
});
const checksOf = async (patientId: string) => database.db.select().from(eligibilityChecks).where(eq(eligibilityChecks.patientId, patientId));

describe("a fresh eligibility check before sending (real sandbox, real outbox)", () => {
  it("a patient never checked: the submit asks nothing; the outbox checks exactly once and sends; a recent answer sends no check", async () => {
    const one = await demoFormPatient(database.db, "1000000001");
    expect(await checksOf(one.patientId)).toHaveLength(0);
    const sent = await submitForm(deps(), billing, claim(one, [{ code: "99213", unitPrice: "250" }]));
    expect(sent).toMatchObject({ ok: true, status: "queued" });
    if (!sent.ok) return;
    expect(await checksOf(one.patientId)).toHaveLength(0);
    const [row] = await sendAll([sent.id]);
    expect(row?.status).toBe("sent");
    const checks = await checksOf(one.patientId);
    expect(checks.map((c) => [c.outcome, c.servicedDate, c.insurerId])).toEqual([["in_force", day, "payer-rimal"]]);
    expect(await notesOf(sent.id)).toEqual(["eligibilityChecked"]);

    const again = await submitForm(deps(), billing, claim(one, [{ code: "85025", unitPrice: "60" }]));
    if (!again.ok) throw new Error("not queued");
    expect((await sendAll([again.id]))[0]?.status).toBe("sent");
    expect(await checksOf(one.patientId)).toHaveLength(1);
    expect(await notesOf(again.id)).toEqual([]);

    // Older than the configured age (0 hours: always): checked again.
    const third = await submitForm(deps(), billing, claim(one, [{ code: "80053", unitPrice: "120" }]));
    if (!third.ok) throw new Error("not queued");
    expect((await sendAll([third.id], { maxAgeHours: 0 }))[0]?.status).toBe("sent");
    expect(await checksOf(one.patientId)).toHaveLength(2);
  });

  it("a lapsed coverage never checked: the check before sending says so, and the claim stops there (rejected, CV-P-1, nothing sent); the next submit is blocked by the answer it now has", async () => {
    const lapsed = await demoFormPatient(database.db, "1000000002");
    const queued = await submitForm(deps(), billing, claim(lapsed, [{ code: "99213", unitPrice: "225" }]));
    expect(queued).toMatchObject({ ok: true, status: "queued" });
    if (!queued.ok) return;
    const [row] = await sendAll([queued.id]);
    expect((await checksOf(lapsed.patientId)).map((c) => c.outcome)).toEqual(["not_in_force"]);
    expect(row).toMatchObject({ status: "rejected", platformId: null, errors: [{ code: "CV-P-1" }] });
    expect(row?.errors?.[0]?.diagnostics).toMatch(/not in force/);
    const [stopped] = await database.db.select().from(submissionEvents).where(and(eq(submissionEvents.submissionId, queued.id), eq(submissionEvents.toStatus, "rejected")));
    expect(stopped).toMatchObject({ fromStatus: "queued", source: "system", detail: { code: "CV-P-1", stoppedBeforeSending: true } });

    const next = await submitForm(deps(), billing, claim(lapsed, [{ code: "99213", unitPrice: "225" }]));
    expect(next).toMatchObject({ ok: false, error: "scrub" });
    if (next.ok || next.error !== "scrub") return;
    expect(next.findings.filter((f) => f.severity === "error").map((f) => [f.rule, f.family, f.code])).toEqual([["coverage-not-in-force", "CV", "CV-P-1"]]);
  });

  it("the check asks for the lines' categories: one the plan lacks stops the claim before sending (service-excluded, line 2), as the payer would deny it (ar001)", async () => {
    const nora = await demoFormPatient(database.db, "1122334459");
    const queued = await submitForm(deps(), billing, claim(nora, [{ code: "99213", unitPrice: "225" }, { code: "71046", unitPrice: "162" }]));
    if (!queued.ok) throw new Error(`not queued: ${JSON.stringify(queued)}`);
    const [row] = await sendAll([queued.id]);
    expect((await checksOf(nora.patientId)).map((c) => [c.outcome, c.categories])).toEqual([["in_force", ["3", "4"]]]);
    expect(row).toMatchObject({ status: "rejected", errors: [{ code: "CV-P-2" }] });
    expect(row?.errors?.[0]?.diagnostics).toBe(`Line 2 (71046) is not covered: the eligibility answer of ${day} says benefit category 4 is not covered.`);
  });

  it("'submit selected' queues without asking the exchange; the outbox checks each claim's patient the same way", async () => {
    const omar = await demoFormPatient(database.db, "2087654311");
    const draft = await saveDraft(deps(), billing, claim(omar, [{ code: "99214", unitPrice: "350" }]));
    if (!draft.ok) throw new Error("no draft");
    const batch = await submitBatch(deps(), billing, [draft.id]);
    expect(batch).toMatchObject({ submitted: [draft.id], invalid: [] });
    expect(await checksOf(omar.patientId)).toHaveLength(0);
    expect((await sendAll([draft.id]))[0]?.status).toBe("sent");
    expect((await checksOf(omar.patientId)).map((c) => c.outcome)).toEqual(["in_force"]);
  });

  it("the exchange does not answer the check: the claim goes with the note 'eligibility could not be confirmed'", async () => {
    const huda = await demoFormPatient(database.db, "1048573628");
    const queued = await submitForm(deps(), billing, claim(huda, [{ code: "99213", unitPrice: "237.50" }]));
    if (!queued.ok) throw new Error("not queued");
    const [row] = await sendAll([queued.id], { checkWith: deadClient });
    expect(row?.status).toBe("sent");
    expect(await checksOf(huda.patientId)).toHaveLength(0);
    const [note] = await database.db.select().from(submissionEvents).where(and(eq(submissionEvents.submissionId, queued.id), sql`${submissionEvents.detail} ->> 'note' = 'eligibilityUnconfirmed'`));
    expect(note).toMatchObject({ fromStatus: "queued", toStatus: "queued", source: "system", detail: { note: "eligibilityUnconfirmed" } });
  }, 40_000);

  it("a coverage of class VIP is priced from the class row: the general price is a difference, the class price none", async () => {
    const registered = await registerPatient(database.db, { nationalId: "2456789011", givenName: "Ahmed", familyName: "Dental", birthDate: "1986-04-12", gender: "male", phone: "" } as Parameters<typeof registerPatient>[1]);
    if (!registered.ok) throw new Error("not registered");
    const added = await addCoverage(database.db, { patientId: registered.patient.id, insurerId: "payer-rimal", memberId: "RML-55300", coverageRef: "cov-2456789011", coverageClass: "VIP" });
    if (!added.ok) throw new Error(added.reason);
    const vip = { patientId: registered.patient.id, coverageId: added.coverage.id };
    const asked = await submitForm(deps(), billing, claim(vip, [{ code: "99214", unitPrice: "350" }]));
    expect(asked).toMatchObject({ ok: false, error: "scrub" });
    if (asked.ok || asked.error !== "scrub") return;
    expect(asked.findings.map((f) => [f.rule, f.message.en])).toEqual([["contract-price-differs", `Line 1 (99214) is priced 350.00; the contract of ${day} says 420.00.`]]);
    const sent = await submitForm(deps(), billing, claim(vip, [{ code: "99214", unitPrice: "420" }]), asked.id);
    expect(sent).toMatchObject({ ok: true, status: "queued" });
    if (!sent.ok) return;
    // The sandbox knows the patient (its training seed): the check before sending finds the coverage in force.
    expect((await sendAll([sent.id]))[0]?.status).toBe("sent");
    expect((await checksOf(vip.patientId)).map((c) => c.outcome)).toEqual(["in_force"]);
  });
});

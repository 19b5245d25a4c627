import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { seedDemoContracts } from "@/lib/contracts";
import type { Database } from "@/lib/db";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { eligibilityChecks, submissionEvents } from "@/lib/db/schema";
import { eligibilityRefresher } from "@/lib/eligibility";
import { addCoverage, registerPatient, seedDemoPatients } from "@/lib/patients";
import { createPlatformClient, type PlatformClient, type PlatformConfig } from "@/lib/platform";
import { sandboxConnection } from "@/lib/platform/testing";
import { submitBatch } from "@/lib/claims/service";
import { saveDraft, submitForm, type ServiceDeps } from "@/lib/submissions";
import { demoFormPatient, professionalCare } from "@/lib/submissions/testing";
import { startSandbox } from "@/sandbox";

/*
 * A fresh eligibility check before a claim is queued (docs/decisions/090), against the REAL
 * sandbox with the portal's real platform client: a patient never checked is checked exactly once
 * and the scrubber reads that answer (a lapsed coverage is blocked, CV); a recent answer sends
 * nothing; a platform out of reach lets the claim go with a notice. And the coverage's class
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

const deps = (platform: PlatformClient = client, maxAgeHours = 24): ServiceDeps => ({
  db: database.db,
  providerOrgId: config.providerOrgId,
  refreshEligibility: eligibilityRefresher({ db: database.db, providerOrgId: config.providerOrgId, client: async () => platform, warn: () => undefined }, billing, maxAgeHours),
});
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

describe("a fresh eligibility check before queueing (real sandbox)", () => {
  it("a patient never checked: exactly one check, stored, and the claim goes; a recent answer sends none", async () => {
    const one = await demoFormPatient(database.db, "1000000001");
    expect(await checksOf(one.patientId)).toHaveLength(0);
    const sent = await submitForm(deps(), billing, claim(one, [{ code: "99213", unitPrice: "250" }]));
    expect(sent).toMatchObject({ ok: true, status: "queued" });
    const checks = await checksOf(one.patientId);
    expect(checks.map((c) => [c.outcome, c.servicedDate, c.insurerId])).toEqual([["in_force", day, "payer-rimal"]]);

    const again = await submitForm(deps(), billing, claim(one, [{ code: "85025", unitPrice: "60" }]));
    expect(again).toMatchObject({ ok: true, status: "queued" });
    expect(await checksOf(one.patientId)).toHaveLength(1);

    // Older than the configured age (0 hours: always): checked again.
    const third = await submitForm(deps(client, 0), billing, claim(one, [{ code: "80053", unitPrice: "120" }]));
    expect(third).toMatchObject({ ok: true });
    expect(await checksOf(one.patientId)).toHaveLength(2);
  });

  it("a lapsed coverage never checked: the check made before sending says so, and the claim is blocked (CV)", async () => {
    const lapsed = await demoFormPatient(database.db, "1000000002");
    const result = await submitForm(deps(), billing, claim(lapsed, [{ code: "99213", unitPrice: "225" }]));
    expect((await checksOf(lapsed.patientId)).map((c) => c.outcome)).toEqual(["not_in_force"]);
    expect(result).toMatchObject({ ok: false, error: "scrub" });
    if (result.ok || result.error !== "scrub") return;
    expect(result.findings.filter((f) => f.severity === "error").map((f) => [f.rule, f.family, f.code])).toEqual([["coverage-not-in-force", "CV", "CV-P-1"]]);
  });

  it("the check asks for the lines' categories: one the plan lacks is found before sending (service-excluded), as the payer would deny it (ar001)", async () => {
    const nora = await demoFormPatient(database.db, "1122334459");
    const result = await submitForm(deps(), billing, claim(nora, [{ code: "99213", unitPrice: "225" }, { code: "71046", unitPrice: "162" }]));
    const checks = await checksOf(nora.patientId);
    expect(checks.map((c) => [c.outcome, c.categories])).toEqual([["in_force", ["3", "4"]]]);
    expect(result).toMatchObject({ ok: false, error: "scrub" });
    if (result.ok || result.error !== "scrub") return;
    expect(result.findings.map((f) => [f.rule, f.code, f.sequence])).toEqual([["service-excluded", "CV-P-2", 2]]);
    expect(result.findings[0]!.message.en).toBe(`Line 2 (71046) is not covered: the eligibility answer of ${day} says benefit category 4 is not covered.`);
  });

  it("'submit selected' checks each draft's patient the same way: one check, then queued", async () => {
    const omar = await demoFormPatient(database.db, "2087654311");
    const draft = await saveDraft(deps(), billing, claim(omar, [{ code: "99214", unitPrice: "350" }]));
    if (!draft.ok) throw new Error("no draft");
    expect(await checksOf(omar.patientId)).toHaveLength(0);
    const batch = await submitBatch(deps(), billing, [draft.id]);
    expect(batch).toMatchObject({ submitted: [draft.id], invalid: [] });
    expect((await checksOf(omar.patientId)).map((c) => c.outcome)).toEqual(["in_force"]);
  });

  it("the platform out of reach: the claim is queued with the notice 'eligibility could not be confirmed'", async () => {
    const huda = await demoFormPatient(database.db, "1048573628");
    const sent = await submitForm(deps(deadClient), billing, claim(huda, [{ code: "99213", unitPrice: "237.50" }]));
    expect(sent).toMatchObject({ ok: true, status: "queued" });
    if (!sent.ok) return;
    expect(await checksOf(huda.patientId)).toHaveLength(0);
    const [queued] = await database.db.select().from(submissionEvents).where(and(eq(submissionEvents.submissionId, sent.id), eq(submissionEvents.toStatus, "queued")));
    expect(queued?.detail).toMatchObject({ scrub: { findings: [{ rule: "eligibility-unconfirmed", code: "CV-P-3", severity: "notice" }] } });
  }, 30_000);

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
    // The sandbox knows the patient (its training seed): one in-force check for both submits.
    expect((await checksOf(vip.patientId)).map((c) => c.outcome)).toEqual(["in_force"]);
  });
});

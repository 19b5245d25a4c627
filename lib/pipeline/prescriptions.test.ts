import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Caller } from "@/lib/audit";
import { coverages, patients } from "@/lib/db/schema";
import { listPractitioners, seedDemoPractitioners } from "@/lib/facilities";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { findPatientByNationalId, listCoverages } from "@/lib/patients/registry";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "@/lib/platform";
import { getPrescription, submitPrescription, verifiedPrescriptionsFor } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { startPipeline } from "./index";
import { startTestSandbox, waitFor, type SandboxHandle } from "./testing/harness";

/**
 * A prescription verified through the one outbox against a STRICT sandbox in messaging (guide 7.11,
 * docs/decisions/116): the prescriber-request passes every rule, the answer's decision per line,
 * approved refills (cut to the sandbox's most) and reference land on the submission.
 */
const caller: Caller = { actor: { kind: "user", id: "staff-rx", email: "prescriber@clinic.example", roles: ["prescriber"] }, userId: undefined };

describe.each(testDatabases())("prescriptions verified through the exchange on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let port: PlatformPort;
  let base: { patientId: string; coverageId: string; prescriberId: string; diagnoses: string[] };

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    await seedDemoPractitioners(database.db);
    const patient = await findPatientByNationalId(database.db, "1000000001");
    const coverage = (await listCoverages(database.db, patient!.id))[0]!;
    await database.db.update(patients).set({ maritalStatus: "M" }).where(eq(patients.id, patient!.id));
    await database.db.update(coverages).set({ coverageClass: "GOLD" }).where(eq(coverages.id, coverage.id));
    const prescriber = (await listPractitioners(database.db, null))[0]!;
    base = { patientId: patient!.id, coverageId: coverage.id, prescriberId: prescriber.id, diagnoses: ["J06.9"] };
    sb = await startTestSandbox({ adjudicationDelayMs: 50, conformance: "strict", maxRefills: 3 });
    client = createPlatformClient({ ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001", providerName: "Sandbox Family Clinic", providerType: "5" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    port = portFor(client, database.db);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const line = (over: Record<string, unknown> = {}) => ({ by: "scientific", code: "XSC-0001", strength: "500 mg", doseValue: "1", doseUnit: "tablet", frequency: "3/d", durationDays: "10", refills: "2", quantity: "1", ...over });
  const deps = () => ({ db: database.db, providerOrgId: "clinic-001", protocol: "messaging" as const });

  it("2 refills asked: approved with 2 refills and a reference; 5 asked: cut to 3, the line partial; the pharmacy picker offers both", async () => {
    const s = startPipeline({
      db: database.db,
      client: port,
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 5, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 2_000, concurrency: 4, messagePollMs: 100 },
      log: () => {},
    });
    try {
      const two = await submitPrescription(deps(), caller, { ...base, lines: [line(), line({ by: "gtin", code: "06280000000102", absenceReason: "brand-required", refills: "0", frequency: "2/d", doseUnit: "capsule" })] });
      const five = await submitPrescription(deps(), caller, { ...base, lines: [line({ refills: "5" })] });
      expect(two).toMatchObject({ ok: true, status: "queued" });
      expect(five).toMatchObject({ ok: true, status: "queued" });
      const decided = async (id: string) => waitFor(async () => {
        const view = await getPrescription(database.db, id);
        return view && ["complete", "partial", "denied", "rejected", "failed"].includes(view.status) ? view : undefined;
      }, 30_000, `prescription ${id} decided`);
      const a = await decided((two as { id: string }).id);
      expect(a.status).toBe("complete");
      expect(a.reference).toMatch(/\S/);
      expect(a.lines.map((l) => [l.code, l.decision, l.refillsRequested, l.approvedRefills])).toEqual([
        ["XSC-0001", "approved", 2, 2],
        ["06280000000102", "approved", 0, 0],
      ]);
      const b = await decided((five as { id: string }).id);
      expect(b.status).toBe("partial");
      expect(b.lines[0]).toMatchObject({ decision: "partly-approved", refillsRequested: 5, approvedRefills: 3 });
      expect((await verifiedPrescriptionsFor(database.db, "1000000001")).map((v) => v.id).sort()).toEqual([a.id, b.id].sort());
      // The strict sandbox refused nothing: every rule passed.
      const { body } = await sb.admin("GET", "/_admin/conformance");
      expect(JSON.stringify(body)).not.toMatch(/"refused":\s*[1-9]/);
    } finally {
      await s.stop();
    }
  }, 60_000);

  it("refusals are field errors in words, nothing sent: an unknown medicine, a GTIN without its reason, too many refills, another patient's coverage", async () => {
    const other = await findPatientByNationalId(database.db, "1000000002");
    const result = await submitPrescription(deps(), caller, { ...base, lines: [line({ code: "XSC-9999" }), line({ by: "gtin", code: "06280000000101" }), line({ refills: "40" })] });
    expect(result).toEqual({ ok: false, error: "invalid", fieldErrors: { "lines.1.absenceReason": ["absenceReasonRequired"], "lines.2.refills": ["tooLarge"] } });
    const unknown = await submitPrescription(deps(), caller, { ...base, lines: [line({ code: "XSC-9999" })] });
    expect(unknown).toEqual({ ok: false, error: "invalid", fieldErrors: { "lines.0.code": ["medicineUnknown"] } });
    const wrongCoverage = await submitPrescription(deps(), caller, { ...base, patientId: other!.id, lines: [line()] });
    expect(wrongCoverage).toMatchObject({ ok: false, error: "invalid", fieldErrors: { coverageId: ["coverageRequired"] } });
  });
});

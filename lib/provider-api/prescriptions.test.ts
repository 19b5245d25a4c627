import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoPractitioners, listPractitioners } from "@/lib/facilities";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import type { PlatformClient } from "@/lib/platform";
import { eq } from "drizzle-orm";
import { submissions } from "@/lib/db/schema";
import { coverages, patients } from "@/lib/db/schema";
import { startPipeline } from "@/lib/pipeline";
import { createPlatformClient, portFor } from "@/lib/platform";
import { findPatientByNationalId } from "@/lib/patients/registry";
import { startTestSandbox, testClient, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import { dispensesOf, getPrescription, refillsLeftOf } from "@/lib/submissions";
import { insertSubmissions } from "@/lib/submissions/testing";
import { testDatabases } from "@/lib/testing/databases";
import { getFhir, json, newOrgKey, postFhir, registerOrg, signToken, testApi, testConfig, type TestOrgKey } from "./testing";
import type { ProviderApi } from "./index";

/** "Verify a prescription" on the provider-side API (docs/decisions/116): 202 with its id, 422 naming each element. */
describe.each(testDatabases())("POST /api/exchange/prescriptions on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let api: ProviderApi;
  let his: TestOrgKey;
  let license: string;

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    await seedDemoPractitioners(database.db);
    license = (await listPractitioners(database.db, null))[0]!.license;
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    api = testApi(database.db, client, testConfig({}, sb.config.providerOrgId));
    his = await newOrgKey("ES256");
    await registerOrg(database.db, "his", his, "Hospital information system");
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const line = (over: Record<string, unknown> = {}) => ({ by: "scientific", code: "XSC-0001", strength: "500 mg", doseValue: 1, doseUnit: "tablet", frequency: "3/d", durationDays: 10, refills: 2, quantity: 1, ...over });
  const body = (over: Record<string, unknown> = {}) => ({ nationalId: "1000000001", coverage: "cov-1000000001", prescriberLicense: license, diagnoses: ["J06.9"], lines: [line()], ...over });
  const post = async (b: unknown) => api.submitPrescription(postFhir("/api/exchange/prescriptions", b, await signToken(his, "his"), { "content-type": "application/json" }));
  const fields = async (res: Response) => {
    const answer = await json(res);
    return JSON.stringify(answer);
  };

  it("202 with its id and Location; its answer is read at /prescriptions/{id}", async () => {
    const res = await post(body());
    expect(res.status).toBe(202);
    const answer = await json(res);
    expect(res.headers.get("location")).toBe(`/api/exchange/prescriptions/${answer.id as string}`);
    const read = await api.prescriptionStatus(getFhir(`/api/exchange/prescriptions/${answer.id as string}`, await signToken(his, "his")), answer.id as string);
    expect(read.status).toBe(200);
    const view = await json(read);
    expect((view.lines as { code: string; refillsRequested: number }[])[0]).toMatchObject({ code: "XSC-0001", refillsRequested: 2 });
  });

  it("422 naming each element: a GTIN without its reason, too many refills, an unknown medicine, another coverage, an unknown prescriber, an unknown field", async () => {
    const a = await post(body({ lines: [line({ by: "gtin", code: "06280000000101" }), line({ refills: 40 })] }));
    expect(a.status).toBe(422);
    const aText = await fields(a);
    expect(aText).toContain("lines[0].absenceReason");
    expect(aText).toContain("a medicine named by GTIN needs the reason it has no scientific code");
    expect(aText).toContain("lines[1].refills");
    const b = await post(body({ lines: [line({ code: "XSC-9999" })] }));
    expect(b.status).toBe(422);
    expect(await fields(b)).toContain("lines[0].code");
    const c = await post(body({ coverage: "cov-1000000002" }));
    expect(c.status).toBe(422);
    expect(await fields(c)).toContain("coverage");
    const d = await post(body({ prescriberLicense: "PRAC-NOPE" }));
    expect(d.status).toBe(422);
    expect(await fields(d)).toContain("prescriberLicense");
    const e = await post({ ...body(), extra: 1 });
    expect(e.status).toBe(422);
    const missing = await api.prescriptionStatus(getFhir("/api/exchange/prescriptions/not-a-uuid", await signToken(his, "his")), "not-a-uuid");
    expect(missing.status).toBe(404);
  });

  it("counts each pharmacy claim that names the prescription's reference as a dispense (drafts, refused and cancelled claims not)", async () => {
    const ref = `RX-${Date.now()}`;
    const claimOf = (status: "queued" | "complete" | "draft" | "rejected") => ({
      kind: "claim" as const,
      status,
      patientNationalId: "1000000001",
      claim: { resourceType: "Claim", prescription: { type: "MedicationRequest", identifier: { value: ref } } },
      channel: "ui",
    });
    expect((await dispensesOf(database.db, [ref])).get(ref)).toBe(0);
    await insertSubmissions(database.db, [claimOf("complete"), claimOf("queued"), claimOf("draft"), claimOf("rejected")]);
    expect((await dispensesOf(database.db, [ref])).get(ref)).toBe(2);
    expect(refillsLeftOf({ lines: [{ approvedRefills: 2 } as never, { approvedRefills: 1 } as never], dispensed: 2 })).toBe(0);
    expect(refillsLeftOf({ lines: [{ approvedRefills: 2 } as never], dispensed: 1 })).toBe(1);
  });
});

/** A prescription's life on the provider-side API, in messaging against the strict sandbox (docs/decisions/121). */
describe.each(testDatabases())("a prescription's cancel, status check, information and appeal on the API, on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let api: ProviderApi;
  let his: TestOrgKey;
  let license: string;

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    await seedDemoPractitioners(database.db);
    license = (await listPractitioners(database.db, null))[0]!.license;
    const patient = await findPatientByNationalId(database.db, "1000000001");
    await database.db.update(patients).set({ maritalStatus: "M" }).where(eq(patients.id, patient!.id));
    await database.db.update(coverages).set({ coverageClass: "GOLD" }).where(eq(coverages.patientId, patient!.id));
    sb = await startTestSandbox({ adjudicationDelayMs: 50, conformance: "strict", maxRefills: 3 });
    client = createPlatformClient({ ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001", providerName: "Sandbox Family Clinic", providerType: "5" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    api = testApi(database.db, client, testConfig({ protocol: "messaging" }, sb.config.providerOrgId));
    his = await newOrgKey("ES256");
    await registerOrg(database.db, "his", his, "Hospital information system");
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const line = (over: Record<string, unknown> = {}) => ({ by: "scientific", code: "XSC-0001", strength: "500 mg", doseValue: 1, doseUnit: "tablet", frequency: "3/d", durationDays: 10, refills: 2, quantity: 1, ...over });
  const body = (over: Record<string, unknown> = {}) => ({ nationalId: "1000000001", coverage: "cov-1000000001", prescriberLicense: license, diagnoses: ["J06.9"], lines: [line()], ...over });
  const post = async (b: unknown) => api.submitPrescription(postFhir("/api/exchange/prescriptions", b, await signToken(his, "his"), { "content-type": "application/json" }));

  /** Runs the outbox until no submission is queued, then until `id` is decided. */
  async function sendAndDecide(id: string): Promise<string> {
    const worker = startPipeline({
      db: database.db,
      client: portFor(client, database.db),
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 5, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 2_000, concurrency: 4, messagePollMs: 100 },
      log: () => {},
    });
    try {
      return await waitFor(async () => {
        const [row] = await database.db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, id));
        return row && ["complete", "partial", "denied", "rejected", "failed"].includes(row.status) ? row.status : undefined;
      }, 30_000, "the prescription decided");
    } finally {
      await worker.stop();
    }
  }

  it("a prescription's life (docs/decisions/121): refills cut to the payer's most, status check, information sent, an appeal of the cut line — each 422 naming the element, another client's a 404", async () => {
    const tok = () => signToken(his, "his");
    const created = await json(await post(body({ lines: [line({ refills: 5 })] })));
    const id = created.id as string;
    expect(await sendAndDecide(id)).toBe("partial");
    const view = (await getPrescription(database.db, id))!;
    expect(view.lines[0]).toMatchObject({ refillsRequested: 5, approvedRefills: 3, refillsLeft: 3 });
    expect(view.dispensed).toBe(0);
    expect(refillsLeftOf(view)).toBe(3);

    const check = await api.prescriptionStatusCheck(postFhir(`/api/exchange/prescriptions/${id}/status-check`, "", await tok()), id);
    expect(check.status).toBe(200);

    const evidence = await api.prescriptionEvidence(postFhir(`/api/exchange/prescriptions/${id}/evidence`, { resourceType: "Parameters", parameter: [{ name: "text", valueString: "The patient needs five refills: chronic pain." }] }, await tok()), id);
    expect(evidence.status).toBe(200);
    const badEvidence = await api.prescriptionEvidence(postFhir(`/api/exchange/prescriptions/${id}/evidence`, { resourceType: "Parameters", parameter: [{ name: "sequence", valuePositiveInt: 0 }] }, await tok()), id);
    expect(badEvidence.status).toBe(422);
    expect(JSON.stringify(await json(badEvidence))).toContain("Parameters.parameter[0].valuePositiveInt");

    const appeal = async (b: unknown, t?: string) => api.appealPrescription(postFhir(`/api/exchange/prescriptions/${id}/appeal`, b, t ?? (await tok()), { "content-type": "application/json" }), id);
    const short = await appeal({ sequences: [1], justification: "too short" });
    expect(short.status).toBe(422);
    expect(JSON.stringify(await json(short))).toContain("justification");
    const wrongLine = await appeal({ sequences: [2], justification: "Chronic pain: five refills are needed." });
    expect(wrongLine.status).toBe(422);
    const wrongText = JSON.stringify(await json(wrongLine));
    expect(wrongText).toContain("sequences");
    expect(wrongText).toContain("not a refused or cut medicine of this prescription");
    const other = await newOrgKey("ES256");
    await registerOrg(database.db, "other-his", other);
    expect((await appeal({ sequences: [1], justification: "Chronic pain: five refills are needed." }, await signToken(other, "other-his"))).status).toBe(404);
    const filed = await appeal({ sequences: [1], justification: "Chronic pain: five refills are needed." });
    expect(filed.status).toBe(202);
    const appealId = (await json(filed)).id as string;
    expect(filed.headers.get("location")).toBe(`/api/exchange/prescriptions/${appealId}`);
    const [stored] = await database.db.select().from(submissions).where(eq(submissions.id, appealId));
    expect(stored).toMatchObject({ kind: "prescription", appealOfId: id });
    const claim = stored!.claim as { related?: { relationship?: { coding?: { code?: string }[] } }[]; supportingInfo?: { category?: { coding?: { code?: string }[] }; valueString?: string }[]; contained?: unknown[] };
    expect(claim.related?.[0]?.relationship?.coding?.[0]?.code).toBe("prior");
    expect(claim.supportingInfo?.find((i) => i.category?.coding?.[0]?.code === "info")?.valueString).toBe("Chronic pain: five refills are needed.");
    expect(claim.contained).toHaveLength(1);
    expect((await appeal({ sequences: [1], justification: "Chronic pain: five refills are needed." })).status).toBe(409);
    expect(await sendAndDecide(appealId)).toMatch(/partial|complete/);

    // Cancel: the exchange's reason is required (400/422 naming it); another client's is a 404.
    const cancelBad = await api.cancelPrescription(postFhir(`/api/exchange/prescriptions/${id}/cancel`, { resourceType: "Parameters", parameter: [{ name: "reason", valueCode: "nope" }] }, await tok()), id);
    expect([400, 422]).toContain(cancelBad.status);
    const cancelOther = await api.cancelPrescription(postFhir(`/api/exchange/prescriptions/${id}/cancel`, { resourceType: "Parameters", parameter: [{ name: "reason", valueCode: "WI" }] }, await signToken(other, "other-his")), id);
    expect(cancelOther.status).toBe(404);
  });

  it("the strict sandbox refused none of it", async () => {
    const { body } = await sb.admin("GET", "/_admin/conformance");
    expect(JSON.stringify(body)).not.toMatch(/"refused":\s*[1-9]/);
  });
});

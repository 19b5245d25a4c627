import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { CODE_SYSTEMS, buildEligibilityRequest, nphies, servicesNeedingAuthorization } from "@/lib/fhir";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "./index";
import { claimFixture, startPlatformSandbox, type PlatformSandbox } from "./testing";

let sbx: PlatformSandbox;
let database: Database;
let client: PlatformClient;
let port: PlatformPort;

beforeAll(async () => {
  sbx = await startPlatformSandbox({ adjudicationDelayMs: 100 });
  database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  await seedDemoPatients(database.db);
  client = createPlatformClient({ ...sbx.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" }, { db: database.db, limits: { limits: { eligibility: 2_000, claims: 2_000, status: 5_000 } } });
  port = portFor(client, database.db);
});
afterAll(async () => {
  await client?.close();
  await sbx?.stop();
  await database?.close();
});

const discovery = (insurerId: string) =>
  buildEligibilityRequest({ identifierValue: crypto.randomUUID(), nationalId: "1000000001", insurerId, providerOrgId: "clinic-001", servicedDate: new Date().toISOString().slice(0, 10), purposes: ["discovery", "benefits", "validation"], categories: [], created: new Date() });

describe("discovery and transfer of care against the strict sandbox, in messaging", () => {
  it("a discovery names no coverage and the insurer reports the patient's coverages", async () => {
    const answer = await port.checkEligibility(discovery("payer-rimal"));
    const found = answer.view.discovered ?? [];
    expect(found.map((c) => c.coverageId)).toContain("cov-1000000001");
    const first = found.find((c) => c.coverageId === "cov-1000000001")!;
    expect(first).toMatchObject({ insurerId: "payer-rimal", inforce: true });
    expect(first.memberId).toBeTruthy();
    expect(first.plan).toBeTruthy();
    expect(first.period?.end).toMatch(/^\d{4}-12-31/);
  });

  it("an insurer holding no coverage of the patient answers without insurance, not a refusal", async () => {
    const answer = await port.checkEligibility(discovery("payer-wadi"));
    expect(answer.view.outcome).toBe("complete");
    expect(answer.view.discovered).toBeUndefined();
    expect(answer.view.insurances).toEqual([]);
  });

  it("auth-requirements names the services in the exchange's own code systems, never CPT, which it refuses (decision 125)", async () => {
    const request = buildEligibilityRequest({ identifierValue: crypto.randomUUID(), nationalId: "1000000001", insurerId: "payer-rimal", coverageRef: "Coverage/cov-1000000001", providerOrgId: "clinic-001", servicedDate: new Date().toISOString().slice(0, 10), purposes: ["auth-requirements"], categories: [], created: new Date() });
    const answer = await port.checkEligibility(request);
    const services = servicesNeedingAuthorization(answer.view);
    expect(services.map((s) => s.code)).toContain("IMG-3003");
    expect(services.find((s) => s.code === "IMG-3003")?.system).toBe(nphies.SYSTEMS.imaging);
    expect(services.filter((s) => s.system === CODE_SYSTEMS.cpt)).toEqual([]);
  });

  it("a referral's prior authorization is answered with the transfer authorization, which the receiving claim may use", async () => {
    const pa = claimFixture({ use: "preauthorization", items: [{ code: "99213", price: 250 }] });
    pa.extension = [...(pa.extension ?? []), { url: nphies.EXTENSIONS.transfer, valueBoolean: true }];
    const answer = await port.submitClaim(pa);
    expect(answer.view.preAuthRef).toMatch(/^PA-/);
    expect(answer.view.transfer?.number).toBe(answer.view.preAuthRef!.replace(/^PA-/, "TR-"));
    expect(answer.view.transfer?.period?.start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(answer.view.transfer?.provider?.display).toBeTruthy();
    // Without the flag, no transfer authorization.
    const plain = await port.submitClaim(claimFixture({ use: "preauthorization", items: [{ code: "99213", price: 250 }] }));
    expect(plain.view.transfer).toBeUndefined();
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import type { Database } from "@/lib/db";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { eligibilityChecks } from "@/lib/db/schema";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { searchPatients, type PatientSummary } from "@/lib/patients/registry";
import { createPlatformClient, PlatformUnavailableError, type PlatformClient, type PlatformConfig } from "@/lib/platform";
import { sandboxConnection } from "@/lib/platform/testing";
import { startSandbox } from "@/sandbox";
import { eligibilityFormSchema } from "./schema";
import type { Caller } from "@/lib/audit";
import { runEligibilityCheck, type CheckOutcome, type EligibilityDeps } from "./service";
import { getCheckView, listChecksForPatient } from "./store";
import { authorizationRequirementsFor } from "./auth-requirements";
import { servicesNeedingAuthorization } from "@/lib/fhir";

// The REAL sandbox over mutual TLS on a free port, with the portal's real platform client.
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dataDir: string;
let database: Database;
let client: PlatformClient;
let config: PlatformConfig;
const patients = new Map<string, PatientSummary>();
const USER = "00000000-0000-4000-8000-0000000000fd";
const caller: Caller = { actor: { kind: "user", id: USER, email: "frontdesk@clinic.example", roles: ["front_desk"] }, userId: USER, requestId: "22222222-2222-4222-8222-222222222222" };
const warnings: string[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eligibility-service-"));
  sandbox = await startSandbox({ port: 0, dataDir, quiet: true, adjudicationDelayMs: 60_000 });
  config = sandboxConnection(sandbox).config;
  database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  client = createPlatformClient(config, { db: database.db });
  await seedDemoPatients(database.db);
  for (const id of ["1000000001", "1000000002", "1000000003", "1048573628"]) patients.set(id, (await searchPatients(database.db, id))[0]!);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const deps = (over: Partial<EligibilityDeps> = {}): EligibilityDeps => ({ db: database.db, client, providerOrgId: config.providerOrgId, warn: (l) => warnings.push(l), ...over });
const today = () => new Date().toISOString().slice(0, 10);
function input(nationalId: string, extra: Partial<{ categories: string[]; purposes: string[]; servicedDate: string; coverageId: string }> = {}) {
  const p = patients.get(nationalId)!;
  return eligibilityFormSchema.parse({ patientId: p.id, coverageId: extra.coverageId ?? p.coverages[0]!.id, servicedDate: extra.servicedDate ?? today(), purposes: extra.purposes ?? ["benefits", "validation"], categories: extra.categories ?? [] });
}
function answered(outcome: CheckOutcome) {
  if (outcome.kind !== "answered") throw new Error(`expected an answer, got ${JSON.stringify(outcome)}`);
  return outcome.check;
}

describe("eligibility service against the sandbox", () => {
  it("1000000001: in force, every category of the plan with exact amounts, stored and audited", async () => {
    const check = answered(await runEligibilityCheck(deps(), caller, input("1000000001")));
    expect(check.outcome).toBe("in_force");
    expect(check.inforce).toBe(true);
    const categories = check.benefits!.insurances[0]!.categories;
    expect(check.benefits!.insurances[0]!.coverageId).toBe("cov-1000000001");
    expect(categories.map((c) => c.code)).toEqual(["1", "2", "3", "4", "5", "62", "69", "F6"]);
    const consult = categories.find((c) => c.code === "3")!;
    expect([consult.allowed?.minor, consult.used?.minor, consult.remaining?.minor, consult.copayPercent]).toEqual([500_000, 125_000, 375_000, 20]);
    const xray = categories.find((c) => c.code === "4")!;
    expect(xray.remaining?.minor).toBe(20_000);
    expect(categories.find((c) => c.code === "F6")!.remaining?.minor).toBe(0);

    const [row] = await listChecksForPatient(database.db, check.patient.id);
    expect(row).toMatchObject({ id: check.id, outcome: "in_force", errorCode: null, insurerId: "payer-rimal" });
    const reopened = await getCheckView(database.db, check.id);
    expect(reopened?.benefits).toEqual(check.benefits);
    const [stored] = await database.db.select().from(eligibilityChecks).limit(1);
    expect(stored!.request).toMatchObject({ resourceType: "CoverageEligibilityRequest", patient: { reference: "Patient/1000000001" }, insurer: { reference: "Organization/payer-rimal" }, provider: { reference: "Organization/clinic-001" } });
    expect(stored!.response).toMatchObject({ resourceType: "CoverageEligibilityResponse" });
    expect(stored!.checkedBy).toBe(USER);

    const { rows } = await listAuditEvents(database.db, { action: "eligibility.check" });
    expect(rows[0]).toMatchObject({ targetType: "eligibility_check", targetId: check.id, outcome: "success" });
    expect(JSON.stringify(rows[0])).not.toContain("1000000001");
  });

  it("asked categories only; one outside the plan comes back as not covered", async () => {
    const check = answered(await runEligibilityCheck(deps(), caller, input("1000000001", { categories: ["3", "61"] })));
    expect(check.benefits!.insurances[0]!.categories.map((c) => [c.code, c.excluded])).toEqual([
      ["3", false],
      ["61", true],
    ]);
  });

  it("auth-requirements: the payer names the services that need a prior authorization; the forms' lookup reads that answer (decision 125)", async () => {
    const p = patients.get("1000000001")!;
    // No such answer on file yet: nothing to mark.
    expect(await authorizationRequirementsFor(database.db, p.id, p.coverages[0]!.id)).toBeUndefined();
    const check = answered(await runEligibilityCheck(deps(), caller, input("1000000001", { purposes: ["auth-requirements"] })));
    const services = servicesNeedingAuthorization(check.benefits!).map((s) => s.code);
    expect(services).toEqual(expect.arrayContaining(["70553", "72148"]));
    expect(services).not.toContain("99213");
    const found = await authorizationRequirementsFor(database.db, p.id, p.coverages[0]!.id);
    expect(found?.codes.sort()).toEqual([...new Set(services)].sort());
    // Another patient's coverage is not read through this one's.
    expect(await authorizationRequirementsFor(database.db, patients.get("1000000003")!.id, p.coverages[0]!.id)).toBeUndefined();
    // A benefits answer lists categories only, never a service item.
    const benefits = answered(await runEligibilityCheck(deps(), caller, input("1000000001")));
    expect(benefits.benefits!.insurances[0]!.categories.some((c) => c.productOrService)).toBe(false);
  });

  it("1000000002: NOT in force, no benefits", async () => {
    const check = answered(await runEligibilityCheck(deps(), caller, input("1000000002")));
    expect(check.outcome).toBe("not_in_force");
    expect(check.inforce).toBe(false);
    expect(check.benefits!.insurances[0]!.categories).toEqual([]);
  });

  it("1000000003: ERR-002 on the coverage field, stored as a refused check", async () => {
    const outcome = await runEligibilityCheck(deps(), caller, input("1000000003"));
    expect(outcome).toMatchObject({ kind: "rejected", code: "ERR-002", status: 404, field: "coverageId" });
    if (outcome.kind !== "rejected") return;
    const view = await getCheckView(database.db, outcome.check.id);
    expect(view).toMatchObject({ outcome: "rejected", inforce: null, error: { code: "ERR-002", status: 404, field: "coverageId" } });
    const { rows } = await listAuditEvents(database.db, { action: "eligibility.check", outcome: "failure" });
    expect(rows[0]?.details).toMatchObject({ result: "rejected", code: "ERR-002" });
  });

  it("a coverage of another patient is refused before anything is sent", async () => {
    const other = patients.get("1000000002")!.coverages[0]!.id;
    expect(await runEligibilityCheck(deps(), caller, input("1000000001", { coverageId: other }))).toEqual({ kind: "invalid", fieldErrors: { coverageId: ["coverageUnknown"] } });
  });

  it("in messaging, a record the exchange would refuse (no marital status, a coverage without its class) is a field error before anything is sent", async () => {
    const before = (await database.db.select().from(eligibilityChecks)).length;
    const patient = patients.get("1000000001")!;
    await database.query("update patients set marital_status = null where id = $1", [patient.id]);
    await database.query("update coverages set coverage_class = '' where id = $1", [patient.coverages[0]!.id]);
    try {
      expect(await runEligibilityCheck(deps({ protocol: "messaging" }), caller, input("1000000001"))).toEqual({ kind: "invalid", fieldErrors: { patientId: ["maritalStatusMissing"], coverageId: ["coverageClassMissing"] } });
      expect((await database.db.select().from(eligibilityChecks)).length).toBe(before);
    } finally {
      await database.query("update patients set marital_status = 'M' where id = $1", [patient.id]);
      await database.query("update coverages set coverage_class = 'Gold' where id = $1", [patient.coverages[0]!.id]);
    }
  });

  it("over the rate limit: returns retryAfterMs instead of waiting or failing", async () => {
    // Limit 2 → the portal allows 1 per window; the second call finds no permit.
    const tight = createPlatformClient(config, { db: database.db, limits: { limits: { eligibility: 2, claims: 500, status: 1000 }, windowMs: 30_000 } });
    try {
      await database.query("delete from platform_rate_permits");
      answered(await runEligibilityCheck(deps({ client: tight }), caller, input("1048573628")));
      const second = await runEligibilityCheck(deps({ client: tight }), caller, input("1048573628"));
      expect(second.kind).toBe("rate_limited");
      if (second.kind === "rate_limited") {
        expect(second.retryAfterMs).toBeGreaterThan(1000);
        expect(second.source).toBe("limiter");
        expect(new Date(second.retryAt).getTime()).toBeGreaterThan(Date.now());
      }
    } finally {
      await tight.close();
    }
  });

  it("recognises the platform's errors by name too (another bundle's copy of the classes)", async () => {
    class ForeignPlatformError extends Error {
      override name = "PlatformError";
      code = "ERR-001" as const;
      status = 400;
      field = "CoverageEligibilityRequest.patient";
    }
    const foreign = { checkEligibility: async () => Promise.reject(new ForeignPlatformError("refused")) };
    expect(await runEligibilityCheck(deps({ client: foreign }), caller, input("1048573628"))).toMatchObject({ kind: "rejected", code: "ERR-001", field: "patientId" });
    class ForeignRateLimited extends Error {
      override name = "PlatformRateLimitedError";
      retryAfterMs = 4200;
      fromPlatform = true;
    }
    const busy = { checkEligibility: async () => Promise.reject(new ForeignRateLimited("wait")) };
    const fixed = new Date("2026-03-01T08:00:00Z");
    // The form says when the check will run and whether the limiter or the platform's Retry-After decided it.
    expect(await runEligibilityCheck({ ...deps({ client: busy }), now: () => fixed }, caller, input("1048573628"))).toEqual({
      kind: "rate_limited",
      retryAfterMs: 4200,
      retryAt: "2026-03-01T08:00:04.200Z",
      source: "platform",
    });
  });

  it("a platform that is down gives 'unavailable' and stores nothing", async () => {
    const before = (await listChecksForPatient(database.db, patients.get("1048573628")!.id)).length;
    const down = { checkEligibility: async () => Promise.reject(new PlatformUnavailableError({ reason: "timeout", requestId: "x", message: "timed out" })) };
    expect(await runEligibilityCheck(deps({ client: down }), caller, input("1048573628"))).toEqual({ kind: "unavailable", reason: "timeout" });
    expect((await listChecksForPatient(database.db, patients.get("1048573628")!.id)).length).toBe(before);
    expect(warnings.at(-1)).toMatch(/timeout/);
    expect(warnings.join("\n")).not.toContain("1048573628");
  });
});

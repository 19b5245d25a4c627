import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoPatients } from "@/lib/patients";
import { insertSubmissions } from "@/lib/submissions/testing";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { hasSubmissionsFor, submissionsOfPatient } from "./patients";

describe.each(testDatabases().map((d): [string, TestDatabase] => [d.name, d]))("a patient's submissions on %s", (_name, target) => {
  let database: Awaited<ReturnType<TestDatabase["open"]>>;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("lists a patient's authorizations and claims from submissions, newest first", async () => {
    await insertSubmissions(database.db, [
      { kind: "preauthorization", status: "complete", patientNationalId: "1000000001", insurerId: "payer-rimal", claim: {}, totalMinor: 250_000, currency: "SAR", createdAt: new Date("2026-01-01T00:00:00Z") },
      { kind: "claim", status: "queued", patientNationalId: "1000000001", claim: {}, createdAt: new Date("2026-02-01T00:00:00Z") },
      { kind: "claim", status: "queued", patientNationalId: "1000000002", claim: {} },
    ]);
    expect((await submissionsOfPatient(database.db, "1000000001")).map((s) => [s.kind, s.status])).toEqual([
      ["claim", "queued"],
      ["preauthorization", "complete"],
    ]);
    expect(await submissionsOfPatient(database.db, "1000000003")).toEqual([]);
  });

  it("says whether anything names a national ID, in the caller's transaction too", async () => {
    expect(await hasSubmissionsFor(database.db, "1000000002")).toBe(true);
    expect(await hasSubmissionsFor(database.db, "1000000003")).toBe(false);
    await database.db.transaction(async (tx) => {
      await insertSubmissions(tx, { kind: "claim", status: "draft", patientNationalId: "1000000003", claim: {} });
      expect(await hasSubmissionsFor(tx, "1000000003")).toBe(true);
      tx.rollback();
    }).catch(() => undefined);
    expect(await hasSubmissionsFor(database.db, "1000000003")).toBe(false);
  });
});

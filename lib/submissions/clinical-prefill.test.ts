import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patients } from "@/lib/db/schema";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { findPatientByNationalId } from "@/lib/patients/registry";
import { testDatabases } from "@/lib/testing/databases";
import { lastClinicalFacts } from "./clinical-prefill";
import { insertSubmissions } from "./testing";

/** A form's prefill (docs/decisions/103): the marital status of the record, height and weight of the newest visit that recorded them. */
describe.each(testDatabases())("lastClinicalFacts on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("reads the record and the newest earlier visits; nothing invented for a patient without them", async () => {
    const patient = (await findPatientByNationalId(database.db, "1000000002"))!;
    // A record without a marital status and without earlier visits prefills nothing.
    await database.db.update(patients).set({ maritalStatus: null }).where(eq(patients.id, patient.id));
    expect(await lastClinicalFacts(database.db, patient.id)).toEqual({});
    expect(await lastClinicalFacts(database.db, randomUUID())).toBeUndefined();
    expect(await lastClinicalFacts(database.db, "not-an-id")).toBeUndefined();
    await database.db.update(patients).set({ maritalStatus: "W" }).where(eq(patients.id, patient.id));
    const vital = (weight: string, height: string) => ({ clinical: { vitalSigns: { "vital-sign-weight": { value: weight, absent: "" }, "vital-sign-height": { value: height, absent: "" } } } });
    await insertSubmissions(database.db, [
      { kind: "claim", status: "complete", patientNationalId: "1000000002", claim: {}, form: vital("80", "175"), updatedAt: new Date("2026-10-01T00:00:00Z") },
      { kind: "claim", status: "complete", patientNationalId: "1000000002", claim: {}, form: vital("78.5", ""), updatedAt: new Date("2026-11-01T00:00:00Z") },
      { kind: "claim", status: "draft", patientNationalId: "1000000001", claim: {}, form: vital("55", "160"), updatedAt: new Date("2026-11-20T00:00:00Z") },
    ]);
    expect(await lastClinicalFacts(database.db, patient.id)).toEqual({ maritalStatus: "W", weight: { value: "78.5", on: "2026-11-01" }, height: { value: "175", on: "2026-10-01" } });
  });
});

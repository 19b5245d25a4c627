import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { coverages, patients } from "@/lib/db/schema";
import { readReference, type ReferenceView } from "@/lib/fhir";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { testDatabases } from "@/lib/testing/databases";
import { resolveReference } from "./references";
import { insertSubmissions } from "@/lib/submissions/testing";

const ref = (value: Record<string, unknown>): ReferenceView => readReference(value)!;

for (const target of testDatabases()) {
  describe(`resolveReference (${target.name})`, () => {
    let database: Database & { dispose(): Promise<void> };
    let patientId: string;
    let coverageId: string;
    let submissionId: string;
    const identifierSystem = "https://clinic.example/fhir/claim-id/clinic-001";
    const identifierValue = "0b6f6a56-1f0e-4a47-9f57-0e1f9d6a2c11";

    beforeAll(async () => {
      database = await target.open();
      await seedDemoPatients(database.db);
      const [patient] = await database.db.select().from(patients).limit(1);
      patientId = patient!.id;
      const [coverage] = await database.db.select().from(coverages).limit(1);
      coverageId = coverage!.id;
      const [row] = await insertSubmissions(database.db, { kind: "claim", status: "sent", patientNationalId: patient!.nationalId, claim: { resourceType: "Claim" }, platformId: "c-77", identifierSystem, identifierValue });
      submissionId = row!.id;
    }, 60_000);
    afterAll(async () => database?.dispose());

    it("patients: by relative id, absolute URL, or national-ID identifier; unknown ones stay unresolved", async () => {
      const [patient] = await database.db.select().from(patients).limit(1);
      const nid = patient!.nationalId;
      for (const r of [
        { reference: `Patient/${nid}` },
        { reference: `https://payer.example/fhir/Patient/${nid}/_history/2` },
        { identifier: { system: "http://nphies.sa/identifier/nationalid", value: nid } },
        { identifier: { type: { coding: [{ code: "NI" }] }, value: nid } },
      ]) {
        expect(await resolveReference(database.db, ref(r), "Patient")).toEqual({ type: "Patient", id: patientId, nationalId: nid });
      }
      expect(await resolveReference(database.db, ref({ reference: "Patient/1999999999" }), "Patient")).toBeUndefined();
      // An identifier of an unknown kind is never guessed to be a national ID.
      expect(await resolveReference(database.db, ref({ identifier: { system: "http://x.example/mrn", value: nid } }), "Patient")).toBeUndefined();
      expect(await resolveReference(database.db, ref({ reference: `Organization/${nid}` }), "Patient")).toBeUndefined();
    });

    it("claims: by platform id or by the portal's claim identifier (with or without its system)", async () => {
      const expected = { type: "Claim", id: submissionId, kind: "claim" };
      expect(await resolveReference(database.db, ref({ reference: "http://payer.example/fhir/Claim/c-77" }), "Claim")).toEqual(expected);
      expect(await resolveReference(database.db, ref({ identifier: { system: identifierSystem, value: identifierValue } }), "Claim")).toEqual(expected);
      expect(await resolveReference(database.db, ref({ identifier: { system: "http://provider.example/claim-identifier", value: identifierValue } }), "Claim")).toEqual(expected);
      expect(await resolveReference(database.db, ref({ identifier: { system: identifierSystem, value: "req_161" } }), "Claim")).toBeUndefined();
      expect(await resolveReference(database.db, ref({ display: "a claim" }), "Claim")).toBeUndefined();
    });

    it("coverages and insurers: by platform id, member id, payer licence", async () => {
      const [coverage] = await database.db.select().from(coverages).limit(1);
      expect(await resolveReference(database.db, ref({ reference: `Coverage/${coverage!.coverageRef}` }), "Coverage")).toEqual({ type: "Coverage", id: coverageId });
      expect(await resolveReference(database.db, ref({ identifier: { value: coverage!.memberId } }), "Coverage")).toEqual({ type: "Coverage", id: coverageId });
      expect(await resolveReference(database.db, ref({ reference: "organization/payer-rimal" }), "Organization")).toEqual({ type: "Organization", id: "payer-rimal" });
      expect(
        await resolveReference(database.db, ref({ identifier: { system: "http://nphies.sa/license/payer-license", value: "7000000102" } }), "Organization"),
      ).toEqual({ type: "Organization", id: "payer-wadi" });
      expect(await resolveReference(database.db, ref({ reference: "urn:uuid:5b1a4e0c-8f3d-4a52-9b55-0c9e3f2d7a11" }), "Organization")).toBeUndefined();
      expect(await resolveReference(database.db, ref({ reference: "#org1" }), "Organization")).toBeUndefined();
    });
  });
}

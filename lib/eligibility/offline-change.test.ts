import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { nphies } from "@/lib/fhir";
import { auditedChangeOfflineEligibility, changeOfflineEligibilitySchema, findPatientByNationalId, listCoverages, listOfflineEligibilities } from "@/lib/patients";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { recordOfflineEligibility } from "@/lib/patients/offline";
import { offlineEligibilityInUse } from "@/lib/submissions";
import { insertSubmissions } from "@/lib/submissions/testing";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";

/**
 * An offline eligibility recorded by mistake (decision 120): corrected or removed by the front desk,
 * audited, while no claim carries it; refused once one does.
 */
const caller = { actor: { kind: "user" as const, id: "00000000-0000-4000-8000-0000000000aa", roles: ["front_desk"] }, userId: "00000000-0000-4000-8000-0000000000aa", requestId: "req-offline-change" } as never;

describe.each(testDatabases().map((d): [string, TestDatabase] => [d.name, d]))("correcting an offline eligibility on %s", (_name, target) => {
  let database: Awaited<ReturnType<TestDatabase["open"]>>;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("corrected and removed while no claim carries it; refused (in_use) once a sent claim does; each audited", async () => {
    const db = database.db;
    const patient = (await findPatientByNationalId(db, "1000000001"))!;
    const [coverage] = await listCoverages(db, patient.id);
    const recorded = await recordOfflineEligibility(db, { patientId: patient.id, coverageId: coverage!.id, reference: "OFF-TYPO", givenOn: "2026-11-20" });
    if (!recorded.ok) throw new Error("not recorded");
    const inUse = (row: { reference: string }, on: typeof db = db) => offlineEligibilityInUse(on, patient.nationalId, row.reference);

    const corrected = await auditedChangeOfflineEligibility(db, caller, changeOfflineEligibilitySchema.parse({ action: "correct", id: recorded.row.id, patientId: patient.id, reference: "OFF-EL-22", givenOn: "2026-11-21" }), inUse);
    expect(corrected).toMatchObject({ ok: true, row: { reference: "OFF-EL-22", givenOn: "2026-11-21" } });
    // A field error in words for a bad reference (the schema the action parses).
    expect(changeOfflineEligibilitySchema.safeParse({ action: "correct", id: recorded.row.id, patientId: patient.id, reference: "OFF EL", givenOn: "2026-11-21" }).error?.issues[0]?.message).toBe("offlineReferenceInvalid");
    // Another patient's record is not found.
    const other = (await findPatientByNationalId(db, "1000000002"))!;
    expect(await auditedChangeOfflineEligibility(db, caller, { action: "remove", id: recorded.row.id, patientId: other.id }, inUse)).toEqual({ ok: false, reason: "not_found" });

    // A sent claim carries it (a draft does not count): no longer changeable.
    const claim = { resourceType: "Claim", extension: [{ url: nphies.EXTENSIONS.eligibilityOfflineReference, valueString: "OFF-EL-22" }, { url: nphies.EXTENSIONS.eligibilityOfflineDate, valueDateTime: "2026-11-21" }] };
    await insertSubmissions(db, { kind: "claim", patientNationalId: patient.nationalId, claim, status: "draft" });
    expect(await inUse({ reference: "OFF-EL-22" })).toBe(false);
    await insertSubmissions(db, { kind: "claim", patientNationalId: patient.nationalId, claim, status: "queued" });
    expect(await inUse({ reference: "OFF-EL-22" })).toBe(true);
    expect(await auditedChangeOfflineEligibility(db, caller, { action: "remove", id: recorded.row.id, patientId: patient.id }, inUse)).toEqual({ ok: false, reason: "in_use" });

    // One recorded by mistake and never used: removed.
    const mistake = await recordOfflineEligibility(db, { patientId: patient.id, coverageId: coverage!.id, reference: "OFF-WRONG", givenOn: "2026-11-22" });
    if (!mistake.ok) throw new Error("not recorded");
    expect((await auditedChangeOfflineEligibility(db, caller, { action: "remove", id: mistake.row.id, patientId: patient.id }, inUse)).ok).toBe(true);
    expect((await listOfflineEligibilities(db, patient.id)).map((o) => o.reference)).toEqual(["OFF-EL-22"]);

    const { rows } = await listAuditEvents(db, { limit: 50 });
    const offline = rows.filter((r) => r.action.startsWith("eligibility.offline_")).reverse().map((r) => `${r.action}:${r.outcome}`);
    expect(offline).toEqual(["eligibility.offline_correct:success", "eligibility.offline_remove:failure", "eligibility.offline_remove:failure", "eligibility.offline_remove:success"]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nphies } from "@/lib/fhir";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { NEWBORN_DAYS, daysOld, underMotherCoverage } from "./dates";
import { seedDemoPatients } from "./demo-data";
import { coverageUse, listNewborns, mothersCoverages, registerNewborn } from "./newborn";
import { registerNewbornSchema } from "./newborn-schema";
import { offlineEligibilityFor, recordOfflineEligibility } from "./offline";
import { recordOfflineEligibilitySchema } from "./offline-schema";
import { findPatientByNationalId, listCoverages, searchPatients } from "./registry";

const schema = registerNewbornSchema({ allowSandboxTestIds: true });
const errorsOf = (input: unknown) => {
  const parsed = schema.safeParse(input);
  // The first message of each field, as the form shows it.
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.reverse().map((i) => [i.path.join("."), i.message]));
};
const baby = (motherId: string, over: Record<string, string> = {}) => ({ motherId, nationalId: "1077712345", givenName: "Sara", familyName: "Mother", birthDate: "2026-11-20", birthTime: "06:40", gender: "female", birthWeightKg: "3.2", ...over });

describe("the newborn days (guide 6.5)", () => {
  it("day 0 to day 30 under the mother's coverage, from day 31 the baby's own; the rule module counts the same", () => {
    expect(NEWBORN_DAYS).toBe(nphies.NEWBORN_WINDOW_DAYS);
    expect(daysOld("2026-11-01", "2026-11-01")).toBe(0);
    expect(underMotherCoverage("2026-11-01", "2026-12-01")).toBe(true); // day 30
    expect(underMotherCoverage("2026-11-01", "2026-12-02")).toBe(false); // day 31
    expect(underMotherCoverage("2026-11-01", "2026-10-31")).toBe(false); // before birth
    // Across a month end and a leap day.
    expect(daysOld("2028-02-10", "2028-03-11")).toBe(30);
  });

  it("the form: the weight in kilograms (a comma too); a weight in grams is refused in words; the time of birth", () => {
    const mother = "00000000-0000-4000-8000-000000000001";
    expect(errorsOf(baby(mother))).toEqual({});
    expect(errorsOf(baby(mother, { birthWeightKg: "3,25" }))).toEqual({});
    expect(errorsOf(baby(mother, { birthWeightKg: "3200" }))).toEqual({ birthWeightKg: "birthWeightGrams" });
    expect(errorsOf(baby(mother, { birthWeightKg: "" }))).toEqual({ birthWeightKg: "birthWeightRequired" });
    expect(errorsOf(baby(mother, { birthWeightKg: "3.2 kg" }))).toEqual({ birthWeightKg: "birthWeightInvalid" });
    expect(errorsOf(baby(mother, { birthTime: "25:00" }))).toEqual({ birthTime: "birthTimeInvalid" });
    expect(errorsOf(baby(mother, { birthDate: "2999-01-01" }))).toEqual({ birthDate: "birthDateFuture" });
  });
});

describe.each(testDatabases().map((d): [string, TestDatabase] => [d.name, d]))("newborns and offline eligibilities on %s", (_name, target) => {
  let database: Awaited<ReturnType<TestDatabase["open"]>>;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("registers a newborn linked to the mother (weight in grams, marital status never married); the baby is offered the mother's coverages", async () => {
    const mother = (await findPatientByNationalId(database.db, "1000000001"))!;
    const result = await registerNewborn(database.db, schema.parse(baby(mother.id)));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.patient).toMatchObject({ motherId: mother.id, birthWeightGrams: 3200, birthTime: "06:40", maritalStatus: "S" });
    expect((await listNewborns(database.db, mother.id)).map((b) => b.id)).toEqual([result.patient.id]);
    const [found] = await searchPatients(database.db, "1077712345");
    expect(found!.newborn).toEqual({ birthWeightGrams: 3200 });
    expect(found!.coverages.map((c) => [c.coverageRef, c.ofMother])).toEqual([["cov-1000000001", true]]);
    expect(await mothersCoverages(database.db, result.patient)).toHaveLength(1);
    // Twice: the number is taken. Born before the mother: refused.
    expect(await registerNewborn(database.db, schema.parse(baby(mother.id)))).toEqual({ ok: false, reason: "duplicate", existingId: result.patient.id });
    expect(await registerNewborn(database.db, schema.parse(baby(mother.id, { nationalId: "1000000019", birthDate: "1980-01-01" })))).toEqual({ ok: false, reason: "born_before_mother" });
  });

  it("the coverage a request names: the mother's within the 30 days (with the birth weight), refused from day 31 and before birth; someone else's never", async () => {
    const mother = (await findPatientByNationalId(database.db, "1000000001"))!;
    const newborn = (await findPatientByNationalId(database.db, "1077712345"))!;
    const [coverage] = await listCoverages(database.db, mother.id);
    const ok = await coverageUse(database.db, newborn, coverage!.id, ["2026-11-20", "2026-12-20"]);
    expect(ok).toMatchObject({ ok: true, newborn: { birthWeightKg: 3.2 } });
    expect(await coverageUse(database.db, newborn, coverage!.id, ["2026-12-21"])).toEqual({ ok: false, reason: "newborn_too_old" });
    expect(await coverageUse(database.db, newborn, coverage!.id, ["2026-11-19"])).toEqual({ ok: false, reason: "newborn_outside" });
    // The mother's own use of it is no newborn's.
    const own = await coverageUse(database.db, mother, coverage!.id, ["2030-01-01"]);
    expect(own).toMatchObject({ ok: true });
    expect(own.ok ? own.newborn : "refused").toBeUndefined();
    const other = (await findPatientByNationalId(database.db, "1000000002"))!;
    expect(await coverageUse(database.db, other, coverage!.id, [])).toEqual({ ok: false, reason: "unknown" });
  });

  it("an offline eligibility: recorded for the patient's coverage (or a newborn's mother's), found for a claim within 30 days of it", async () => {
    const mother = (await findPatientByNationalId(database.db, "1000000001"))!;
    const [coverage] = await listCoverages(database.db, mother.id);
    const input = recordOfflineEligibilitySchema.parse({ patientId: mother.id, coverageId: coverage!.id, reference: "OFF-EL-1", givenOn: "2026-11-20" });
    expect((await recordOfflineEligibility(database.db, input)).ok).toBe(true);
    expect(await offlineEligibilityFor(database.db, mother.id, coverage!.id, "2026-11-24")).toEqual({ reference: "OFF-EL-1", date: "2026-11-20" });
    expect(await offlineEligibilityFor(database.db, mother.id, coverage!.id, "2027-01-24")).toBeUndefined();
    const other = (await findPatientByNationalId(database.db, "1000000002"))!;
    expect(await recordOfflineEligibility(database.db, { ...input, patientId: other.id })).toEqual({ ok: false, reason: "coverage_unknown" });
    expect(recordOfflineEligibilitySchema.safeParse({ ...input, reference: "" }).error?.issues[0]?.message).toBe("offlineReferenceRequired");
    expect(recordOfflineEligibilitySchema.safeParse({ ...input, givenOn: "2999-01-01" }).error?.issues[0]?.message).toBe("offlineDateFuture");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { auditEvents, visitLists, visits } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { DEMO_PATIENTS, seedDemoPatients } from "./demo-data";
import { addCoverage, getCoverage, getPatient, listCoverages, registerPatient, searchKind, searchPatients } from "./registry";
import { registerPatientSchema, updatePatientSchema } from "./schemas";
import { auditedRegister, auditedSearch, auditedUpdate, auditedView, patientListProblems } from "./service";
import { hasSubmissionsFor } from "@/lib/submissions";
import { hasVisitsFor } from "@/lib/visits";
import { insertSubmissions } from "@/lib/submissions/testing";

const parse = registerPatientSchema({ allowSandboxTestIds: true }).parse;
const parseResult = (input: unknown) => registerPatientSchema({ allowSandboxTestIds: true }).safeParse(input).success;
const caller = { actor: { kind: "user" as const, id: "00000000-0000-4000-8000-000000000001", email: "fd@clinic.example", roles: ["front_desk"] }, userId: "00000000-0000-4000-8000-000000000001", userName: "Front Desk", requestId: "11111111-1111-4111-8111-111111111111" };

describe.each(testDatabases().map((d): [string, TestDatabase] => [d.name, d]))("patient registry on %s", (_name, target) => {
  let database: Awaited<ReturnType<TestDatabase["open"]>>;
  beforeAll(async () => {
    database = await target.open();
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("seeds the demo insurers, patients and coverages once", async () => {
    expect(await seedDemoPatients(database.db)).toBe(true);
    expect(await seedDemoPatients(database.db)).toBe(false);
    const found = await searchPatients(database.db, "1000000001");
    expect(found).toHaveLength(1);
    expect(found[0]!.coverages.map((c) => [c.insurerId, c.coverageRef, c.insurerNameEn])).toEqual([["payer-rimal", "cov-1000000001", "Rimal Cooperative Health Insurance"]]);
    expect((await searchPatients(database.db, "10000000")).map((p) => p.nationalId).sort()).toEqual(["1000000001", "1000000002", "1000000003"]);
    expect(DEMO_PATIENTS).toHaveLength(6);
  });

  it("registers a patient once per national ID, with the phone in E.164", async () => {
    const first = await registerPatient(database.db, parse({ nationalId: "2087654329", givenName: "Salma", familyName: "Al-Qurashi", birthDate: "2001-04-05", gender: "female", phone: "055 123 4567" }));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.patient.phone).toBe("+966551234567");
    const again = await registerPatient(database.db, parse({ nationalId: "2087654329", givenName: "S", familyName: "Q", birthDate: "2001-04-05", gender: "female", phone: "" }));
    expect(again).toEqual({ ok: false, reason: "duplicate", existingId: first.patient.id });
    expect((await getPatient(database.db, first.patient.id))?.givenName).toBe("Salma");
    expect(await getPatient(database.db, "not-a-uuid")).toBeUndefined();
  });

  it("records occupation and religion from the catalogue's lists; a code outside them is a field error", async () => {
    const input = parse({ nationalId: "1000000047", givenName: "Reem", familyName: "Lists", birthDate: "1999-02-03", gender: "female", phone: "", occupation: "student", religion: "muslim" });
    expect(await patientListProblems(database.db, input)).toBeUndefined();
    const saved = await registerPatient(database.db, input);
    expect(saved.ok && [saved.patient.occupation, saved.patient.religion]).toEqual(["student", "muslim"]);
    expect(await patientListProblems(database.db, { occupation: "astronaut", religion: "" })).toEqual({ occupation: ["occupationInvalid"] });
    expect(await patientListProblems(database.db, { occupation: "", religion: "zz" })).toEqual({ religion: ["religionInvalid"] });
    expect(parseResult({ nationalId: "1000000047", givenName: "R", familyName: "L", birthDate: "1999-02-03", gender: "female", phone: "", occupation: "no spaces allowed" })).toBe(false);
  });

  it("searches by national ID prefix or by every word of the name, any case, wildcards inert", async () => {
    expect(searchKind(" 208 ")).toBe("national_id");
    expect(searchKind("Salma")).toBe("name");
    expect(searchKind("  ")).toBe("empty");
    expect((await searchPatients(database.db, "2087")).map((p) => p.nationalId).sort()).toEqual(["2087654311", "2087654329"]);
    expect((await searchPatients(database.db, "salma qurashi")).map((p) => p.nationalId)).toEqual(["2087654329"]);
    expect((await searchPatients(database.db, "SALMA")).map((p) => p.nationalId)).toEqual(["2087654329"]);
    expect(await searchPatients(database.db, "salma omar")).toEqual([]);
    expect(await searchPatients(database.db, "%")).toEqual([]);
    expect(await searchPatients(database.db, "_")).toEqual([]);
    expect(await searchPatients(database.db, "")).toEqual([]);
    expect(await searchPatients(database.db, "patient", 2)).toHaveLength(2);
  });

  it("adds coverages; refuses unknown insurers and duplicates", async () => {
    const [salma] = await searchPatients(database.db, "2087654329");
    const input = { patientId: salma!.id, insurerId: "payer-nakheel", memberId: "NKH-77", coverageRef: "cov-2087654329" };
    const added = await addCoverage(database.db, input);
    expect(added.ok && added.coverage.insurerNameAr).toBe("نخيل للتأمين الصحي التبادلي");
    expect(await addCoverage(database.db, input)).toEqual({ ok: false, reason: "duplicate" });
    expect(await addCoverage(database.db, { ...input, insurerId: "payer-unknown" })).toEqual({ ok: false, reason: "unknown_insurer" });
    expect(await addCoverage(database.db, { ...input, patientId: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10" })).toEqual({ ok: false, reason: "unknown_patient" });
    expect((await listCoverages(database.db, salma!.id)).map((c) => c.coverageRef)).toEqual(["cov-2087654329"]);
  });

  it("keeps the card's expiry date, or none (decision 126)", async () => {
    const [salma] = await searchPatients(database.db, "2087654329");
    const dated = await addCoverage(database.db, { patientId: salma!.id, insurerId: "payer-rimal", memberId: "RML-9", coverageRef: "cov-exp-1", expiresOn: "2026-12-31" });
    expect(dated.ok && dated.coverage.expiresOn).toBe("2026-12-31");
    const undated = await addCoverage(database.db, { patientId: salma!.id, insurerId: "payer-rimal", memberId: "RML-10", coverageRef: "cov-exp-2", expiresOn: "" });
    expect(undated.ok && undated.coverage.expiresOn).toBeNull();
    const listed = await listCoverages(database.db, salma!.id);
    expect(listed.filter((c) => c.coverageRef.startsWith("cov-exp-")).map((c) => [c.coverageRef, c.expiresOn])).toEqual([
      ["cov-exp-1", "2026-12-31"],
      ["cov-exp-2", null],
    ]);
    expect((await getCoverage(database.db, dated.ok ? dated.coverage.id : ""))?.expiresOn).toBe("2026-12-31");
  });

  it("audits search, view and register by internal id — never the national ID, name or query", async () => {
    await auditedSearch(database.db, caller, "1048573628");
    const [huda] = await searchPatients(database.db, "1048573628");
    await auditedView(database.db, caller, huda!.id);
    await auditedView(database.db, caller, "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10");
    const reg = await auditedRegister(database.db, caller, parse({ nationalId: "1000000050", givenName: "Audit", familyName: "Probe", birthDate: "1999-09-09", gender: "male", phone: "" }));
    const { rows } = await listAuditEvents(database.db, { limit: 20 });
    const mine = rows.filter((r) => r.action.startsWith("patient.") && r.action !== "patient.seed_demo");
    expect(mine.map((r) => [r.action, r.outcome, r.targetType]).sort()).toEqual(
      [
        ["patient.register", "success", "patient"],
        ["patient.search", "success", null],
        ["patient.view", "failure", "patient"],
        ["patient.view", "success", "patient"],
      ].sort(),
    );
    expect(mine.find((r) => r.action === "patient.view" && r.outcome === "success")?.targetId).toBe(huda!.id);
    expect(mine.find((r) => r.action === "patient.register")?.targetId).toBe(reg.ok ? reg.patient.id : "");
    expect(mine.find((r) => r.action === "patient.search")?.details).toEqual({ by: "national_id", results: 1 });
    const text = JSON.stringify(mine);
    for (const secret of ["1048573628", "1000000050", "Huda", "Probe"]) expect(text).not.toContain(secret);
  });

  it("corrects a patient; the national ID only while nothing was made under it; audited by field names only", async () => {
    const update = updatePatientSchema({ allowSandboxTestIds: true }).parse;
    const reg = await registerPatient(database.db, parse({ nationalId: "1000000060", givenName: "Typo", familyName: "Name", birthDate: "1990-01-01", gender: "male", phone: "" }));
    const other = await registerPatient(database.db, parse({ nationalId: "1000000061", givenName: "Other", familyName: "Person", birthDate: "1991-01-01", gender: "female", phone: "" }));
    if (!reg.ok || !other.ok) throw new Error("registered");
    const id = reg.patient.id;
    const base = { id, nationalId: "1000000060", givenName: "Typo", familyName: "Name", birthDate: "1990-01-01", gender: "male" as const, phone: "" };

    // Names, birth date, phone and (nothing sent yet) the number itself.
    const fixed = await auditedUpdate(database.db, caller, update({ ...base, nationalId: "1000000062", givenName: "Tariq", phone: "0551234567" }), hasSubmissionsFor, hasVisitsFor);
    expect(fixed).toMatchObject({ ok: true, changed: ["nationalId", "givenName", "phone"] });
    expect(await getPatient(database.db, id)).toMatchObject({ nationalId: "1000000062", givenName: "Tariq", phone: "+966551234567" });
    // The same again changes nothing; another patient's number is a duplicate.
    expect(await auditedUpdate(database.db, caller, update({ ...base, nationalId: "1000000062", givenName: "Tariq", phone: "0551234567" }), hasSubmissionsFor, hasVisitsFor)).toMatchObject({ ok: true, changed: [] });
    expect(await auditedUpdate(database.db, caller, update({ ...base, nationalId: "1000000061" }), hasSubmissionsFor, hasVisitsFor)).toEqual({ ok: false, reason: "duplicate", existingId: other.patient.id });

    // Once a claim was made under the number, it stays; the other fields can still be corrected.
    await insertSubmissions(database.db, { kind: "claim", status: "draft", patientNationalId: "1000000062", claim: { resourceType: "Claim" } });
    expect(await auditedUpdate(database.db, caller, update({ ...base, nationalId: "1000000063", givenName: "Tariq", phone: "0551234567" }), hasSubmissionsFor, hasVisitsFor)).toEqual({ ok: false, reason: "national_id_in_use" });
    expect(await auditedUpdate(database.db, caller, update({ ...base, nationalId: "1000000062", givenName: "Tareq", phone: "0551234567" }), hasSubmissionsFor, hasVisitsFor)).toMatchObject({ ok: true, changed: ["givenName"] });
    expect(await auditedUpdate(database.db, caller, update({ ...base, id: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10" }), hasSubmissionsFor, hasVisitsFor)).toEqual({ ok: false, reason: "not_found" });

    const entries = (await database.db.select().from(auditEvents).where(eq(auditEvents.action, "patient.update")).orderBy(auditEvents.id)).filter((e) => e.targetId === id);
    expect(entries.map((e) => [e.outcome, e.details])).toEqual([
      ["success", { changed: ["nationalId", "givenName", "phone"] }],
      ["success", { changed: [] }],
      ["failure", { reason: "duplicate" }],
      ["failure", { reason: "national_id_in_use" }],
      ["success", { changed: ["givenName"] }],
    ]);
    const text = JSON.stringify(entries);
    for (const secret of ["1000000060", "1000000062", "Tariq", "Tareq", "551234567"]) expect(text).not.toContain(secret);
  });

  it("keeps a national ID a visit is planned under, asked of the visit lists in the correction's transaction", async () => {
    const update = updatePatientSchema({ allowSandboxTestIds: true }).parse;
    const reg = await registerPatient(database.db, parse({ nationalId: "1000000070", givenName: "Planned", familyName: "Visit", birthDate: "1990-01-01", gender: "male", phone: "" }));
    if (!reg.ok) throw new Error("registered");
    const base = { id: reg.patient.id, nationalId: "1000000070", givenName: "Planned", familyName: "Visit", birthDate: "1990-01-01", gender: "male" as const, phone: "" };
    expect(await hasVisitsFor(database.db, "1000000070")).toBe(false);
    const [list] = await database.db.insert(visitLists).values({ name: "Tomorrow", source: "upload" }).returning();
    await database.db.insert(visits).values({ listId: list!.id, line: 1, nationalId: "1000000070", serviceDate: "2026-12-01" });
    expect(await hasVisitsFor(database.db, "1000000070")).toBe(true);
    expect(await auditedUpdate(database.db, caller, update({ ...base, nationalId: "1000000071" }), hasSubmissionsFor, hasVisitsFor)).toEqual({ ok: false, reason: "national_id_in_use" });
    expect(await auditedUpdate(database.db, caller, update({ ...base, givenName: "Plannd" }), hasSubmissionsFor, hasVisitsFor)).toMatchObject({ ok: true, changed: ["givenName"] });
  });
  it("records the marital status asked at registration (the exchange's Minimum Data Set); a code outside the list is a field error", async () => {
    const reg = await registerPatient(database.db, parse({ nationalId: "1000000081", givenName: "Maha", familyName: "Married", birthDate: "1991-02-03", gender: "female", phone: "", maritalStatus: "M" }));
    if (!reg.ok) throw new Error("not registered");
    expect(reg.patient.maritalStatus).toBe("M");
    expect(registerPatientSchema({ allowSandboxTestIds: true }).safeParse({ nationalId: "1000000082", givenName: "A", familyName: "B", birthDate: "1991-02-03", gender: "male", phone: "", maritalStatus: "X" }).error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["maritalStatus", "maritalStatusInvalid"]]);
    // Not asked yet (registered before it was asked): null, not a made-up value.
    const older = await registerPatient(database.db, parse({ nationalId: "1000000083", givenName: "Old", familyName: "Record", birthDate: "1960-02-03", gender: "male", phone: "" }));
    if (!older.ok) throw new Error("not registered");
    expect(older.patient.maritalStatus).toBeNull();
  });
});

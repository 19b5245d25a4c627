import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_SYSTEMS } from "@/lib/fhir";
import { listClaims } from "@/lib/claims";
import { findPatientByNationalId } from "@/lib/patients";
import { testDatabases } from "@/lib/testing/databases";
import { demoFormPatient, insertSubmissions } from "./testing";
import { labelDay, parseShortNumber, shortNumber, submissionLabels, submissionNumber } from "./labels";
import { listSubmissions } from "./views";

describe("the short number in words", () => {
  it("reads what staff type and refuses the rest", () => {
    expect(parseShortNumber("C-1024")).toEqual({ number: 1024, kind: "claim" });
    expect(parseShortNumber(" c1024 ")).toEqual({ number: 1024, kind: "claim" });
    expect(parseShortNumber("A-7")).toEqual({ number: 7, kind: "preauthorization" });
    expect(parseShortNumber("#1024")).toEqual({ number: 1024 });
    expect(parseShortNumber("Huda")).toBeUndefined();
    expect(parseShortNumber("C-99999999999")).toBeUndefined();
    expect(shortNumber("claim", 1024)).toBe("C-1024");
  });

  it("names the day in the clinic's time zone (22:30 UTC is the next day in Riyadh) and a service date as written", () => {
    const now = new Date("2026-11-28T10:00:00Z");
    expect(labelDay(new Date("2026-11-12T22:30:00Z"), "en", "Asia/Riyadh", now)).toBe("Nov 13");
    expect(labelDay(new Date("2026-11-12T22:30:00Z"), "en", "UTC", now)).toBe("Nov 12");
    expect(labelDay("2026-11-12", "en", "Pacific/Kiritimati", now)).toBe("Nov 12");
    expect(labelDay("2025-11-12", "en", "Asia/Riyadh", now)).toBe("Nov 12, 2025");
    expect(labelDay("2026-11-12", "ar", "Asia/Riyadh", now)).toMatch(/^12 نوفمبر$/);
  });
});

describe.each(testDatabases())("labels and search of submissions on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  const claim = (code: string, date: string, items = 1) => ({
    resourceType: "Claim",
    item: Array.from({ length: items }, (_, i) => ({ sequence: i + 1, productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code }] }, servicedDate: date })),
  });

  beforeAll(async () => {
    database = await target.open();
    await demoFormPatient(database.db, "1000000001");
  }, 120_000);
  afterAll(async () => database?.dispose());

  it("each submission has its own number; the label names patient, service and day; search finds it by number, identifier, reference and name", async () => {
    const db = database.db;
    const patient = (await findPatientByNationalId(db, "1000000001"))!;
    const [a, b, auth] = await insertSubmissions(db, [
      { kind: "claim", status: "sent", patientNationalId: "1000000001", claim: claim("99213", "2026-11-12"), identifierValue: "our-id-1", platformId: "plat-1" },
      { kind: "claim", status: "complete", patientNationalId: "1000000001", claim: claim("99213", "2026-11-13", 3), response: { identifier: [{ value: "PAYER-REF-9" }] } },
      { kind: "preauthorization", status: "complete", patientNationalId: "1000000001", claim: claim("72148", "2026-11-14"), response: { preAuthRef: "PA-5521" } },
    ]);
    expect(new Set([a!.number, b!.number, auth!.number]).size).toBe(3);
    expect(a!.number).toBeGreaterThanOrEqual(1001);

    const labels = await submissionLabels(db, [a!.id, b!.id, auth!.id, "not-a-uuid"], "en");
    const name = `${patient.givenName} ${patient.familyName}`;
    expect(labels.get(a!.id)?.text).toMatch(new RegExp(`^C-${a!.number} · ${name} · [A-Za-z][^·]+ · Nov 12$`));
    expect(labels.get(a!.id)?.number).toBe(`C-${a!.number}`);
    expect(labels.get(a!.id)?.text).toContain(` · ${name} · `);
    expect(labels.get(a!.id)?.text).not.toContain("99213 ·");
    expect(labels.get(b!.id)?.service).toMatch(/\+2$/);
    expect(labels.get(auth!.id)?.number).toBe(`A-${auth!.number}`);
    expect(labels.has("not-a-uuid")).toBe(false);
    expect((await submissionLabels(db, [a!.id], "ar")).get(a!.id)?.day).toBe("12 نوفمبر");
    expect(await submissionNumber(db, auth!.id)).toBe(`A-${auth!.number}`);

    const claims = async (q: string) => (await listClaims(db, { q, timeZone: "Asia/Riyadh" })).rows.map((r) => r.id);
    expect(await claims(`C-${a!.number}`)).toEqual([a!.id]);
    expect(await claims(String(b!.number))).toEqual([b!.id]);
    expect(await claims(`A-${a!.number}`)).toEqual([]); // an authorization's letter finds no claim
    expect(await claims("our-id-1")).toEqual([a!.id]);
    expect(await claims("plat-1")).toEqual([a!.id]);
    expect(await claims("PAYER-REF-9")).toEqual([b!.id]);
    expect((await claims(name)).sort()).toEqual([a!.id, b!.id].sort());
    expect((await claims("1000000001")).sort()).toEqual([a!.id, b!.id].sort());
    expect(await claims("nobody-by-this-name")).toEqual([]);
    expect(await claims("100%_\\")).toEqual([]);

    const auths = async (search: string) => (await listSubmissions(db, { use: "preauthorization", search })).rows.map((r) => r.id);
    expect(await auths("PA-5521")).toEqual([auth!.id]);
    expect(await auths(`A-${auth!.number}`)).toEqual([auth!.id]);
    expect(await auths(`C-${auth!.number}`)).toEqual([]);
    expect(await auths(patient.familyName)).toEqual([auth!.id]);
    expect(await auths("PA-0000")).toEqual([]);
  });

  it("a prescription is P-… and named by its medicine's words when the catalogue does not know the code", async () => {
    const db = database.db;
    const patient = (await findPatientByNationalId(db, "1000000001"))!;
    const medicine = { resourceType: "Claim", item: [{ sequence: 1, productOrService: { coding: [{ system: "http://example.org/no-such-catalogue", code: "MED-1", display: "Paracetamol 500 mg tablets" }] }, servicedDate: "2026-11-15" }] };
    const [p] = await insertSubmissions(db, [{ kind: "prescription", status: "complete", patientNationalId: "1000000001", claim: medicine }]);
    const label = (await submissionLabels(db, [p!.id], "en")).get(p!.id);
    expect(label?.text).toBe(`P-${p!.number} · ${patient.givenName} ${patient.familyName} · Paracetamol 500 mg tablets · Nov 15`);
    expect(await submissionNumber(db, p!.id)).toBe(`P-${p!.number}`);
  });
});

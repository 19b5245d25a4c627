import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/testing/databases";
import { NPHIES_CATALOGUE } from "@/sandbox/catalogue";
import * as mds from "@/lib/fhir/mds";
import { clinicalIssues, EMPTY_CLINICAL } from "@/lib/submissions";
import { CodeFileError, importCodes, lookupCodes, mdsCodeLists, searchCodes, specialtyNames } from "./catalogue";
import { DEMO_CATALOGUE } from "./demo-catalogue";
import { foldCode, prefixQuery, searchWordsOf } from "./fold";
import { csvFields, parseCodeSystem, parseCsv } from "./parse";
import { CATALOGUE_SYSTEMS, systemUrl } from "./systems";

async function* chunks(...parts: string[]) {
  for (const p of parts) yield p;
}
const csv = (text: string, split = 7) => {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += split) parts.push(text.slice(i, i + split));
  return chunks(...parts);
};

describe("folding and the query", () => {
  it("folds codes and words, and adds Arabic words without their article", () => {
    expect(foldCode(" M54.5 ")).toBe("m545");
    expect(searchWordsOf("IMG-3001", "Chest X-ray", "أشعة الصدر")).toBe("img 3001 chest x ray اشعه الصدر صدر");
    expect(prefixQuery("Back  pain")).toBe("back:* & pain:*");
    expect(prefixQuery("الصدر")).toBe("صدر:*");
    // Only letters and digits reach the text-search syntax.
    expect(prefixQuery("a' | !b:* & (c)")).toBe("a:* & b:* & c:*");
    expect(prefixQuery("--- ...")).toBeUndefined();
  });
});

describe("reading files", () => {
  it("splits CSV fields with quotes, and refuses a quote left open", () => {
    expect(csvFields('A1,"Knee, left","قال ""نعم"""')).toEqual(["A1", "Knee, left", 'قال "نعم"']);
    expect(csvFields('A1,"open')).toBeUndefined();
  });

  it("reads CSV line by line across chunks: good lines kept, bad lines refused by number in words", async () => {
    const text = [
      "\uFEFFcode,display,display_ar,extra",
      "A1,First code,الرمز الأول,x",
      "",
      "A2,\"Second, with comma\",",
      ",No code,",
      "A1,Again,",
      "A3",
      "A 4,Space in code,",
      'A5,"open quote',
      "A6,,عربي فقط",
    ].join("\r\n");
    const lines = [];
    for await (const l of parseCsv((async function* () {
      let rest = "";
      for await (const c of csv(text)) {
        rest += c;
        let at;
        while ((at = rest.indexOf("\n")) >= 0) {
          yield rest.slice(0, at);
          rest = rest.slice(at + 1);
        }
      }
      if (rest) yield rest;
    })())) lines.push(l);
    expect(lines.filter((l) => l.ok).map((l) => l.ok && [l.line, l.code, l.en, l.ar])).toEqual([
      [2, "A1", "First code", "الرمز الأول"],
      [4, "A2", "Second, with comma", ""],
    ]);
    expect(lines.filter((l) => !l.ok).map((l) => !l.ok && [l.line, l.message])).toEqual([
      [5, "the code is empty"],
      [6, "the code A1 was already given on line 2"],
      [7, "the line has 1 column; the header names 3"],
      [8, 'the code "A 4" contains a space'],
      [9, "a quoted field is not closed on this line (a description may not span lines)"],
      [10, "the code A6 has no English description"],
    ]);
  });

  it("refuses a CSV without a header naming code and display, or an empty one, whole", async () => {
    const drain = async (source: AsyncIterable<string>) => {
      for await (const _ of parseCsv(source)) void _;
    };
    await expect(drain(chunks("A1,First\n", "A2,Second"))).rejects.toThrow(new CodeFileError('Line 1, the first line, must name the columns: "code" and "display" (optionally "display_ar").'));
    await expect(drain(chunks("\n\n"))).rejects.toThrow(new CodeFileError("The file is empty."));
  });

  it("reads a FHIR CodeSystem with nested concepts and Arabic designations, naming the line of a bad concept", () => {
    const text = JSON.stringify(
      {
        resourceType: "CodeSystem",
        url: systemUrl("laboratory"),
        version: "2026.1",
        concept: [
          { code: "L1", display: "Blood count", designation: [{ language: "ar", value: "تعداد الدم" }], concept: [{ code: "L1.1", display: "White cells" }] },
          { display: "No code" },
          { code: "L2", display: "" },
          { code: "L1", display: "Twice" },
        ],
      },
      null,
      2,
    );
    const file = parseCodeSystem(text);
    expect(file.url).toBe(systemUrl("laboratory"));
    expect(file.version).toBe("2026.1");
    const line = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    expect(file.records).toEqual([
      { ok: true, line: line('"code": "L1"') - 1, code: "L1", en: "Blood count", ar: "تعداد الدم" },
      { ok: true, line: line('"code": "L1.1"') - 1, code: "L1.1", en: "White cells", ar: "" },
      { ok: false, line: line('"display": "No code"') - 1, message: 'the concept has no "code"' },
      { ok: false, line: line('"code": "L2"') - 1, message: "the code L2 has no English description" },
      { ok: false, line: line('"display": "Twice"') - 2, message: `the code L1 was already given on line ${line('"code": "L1"') - 1}` },
    ]);
  });

  it("refuses what is not a CodeSystem in words", () => {
    expect(() => parseCodeSystem('{"resourceType":"CodeSystem",\n"concept": [}')).toThrow(/not valid JSON/);
    expect(() => parseCodeSystem('{"resourceType":"ValueSet"}')).toThrow(/not a FHIR CodeSystem/);
    expect(() => parseCodeSystem('{"resourceType":"CodeSystem","concept":[]}')).toThrow(/no "concept" list/);
  });
});

describe("the demo catalogue", () => {
  it("has a few dozen codes for every system (a value set of the Minimum Data Set its few), each once, with both languages", () => {
    for (const system of CATALOGUE_SYSTEMS) {
      const list = DEMO_CATALOGUE[system.key];
      expect(list.length, system.key).toBeGreaterThanOrEqual((mds.MDS_LIST_KEYS as readonly string[]).includes(system.key) ? 2 : 10);
      expect(list.length, system.key).toBeLessThanOrEqual(60);
      expect(new Set(list.map(([c]) => c)).size, system.key).toBe(list.length);
      for (const [code, en, ar] of list) expect(code && en && ar, `${system.key} ${code}`).toBeTruthy();
    }
  });

  it("holds every code the sandbox prices, so what the picker offers the sandbox accepts", () => {
    const all = new Set(CATALOGUE_SYSTEMS.flatMap((s) => DEMO_CATALOGUE[s.key].map(([c]) => `${s.url}|${c}`)));
    expect(NPHIES_CATALOGUE.map((e) => `${e.system}|${e.code}`).filter((k) => !all.has(k))).toEqual([]);
  });
});

describe.each(testDatabases())("the catalogue on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  }, 60_000);
  afterAll(async () => database?.dispose());

  it("ships the demo catalogue and ranks code matches before word matches", async () => {
    const db = database.db;
    const byCode = await searchCodes(db, ["icd-10-am"], "m54");
    expect(byCode[0]).toMatchObject({ code: "M54.5", version: "demo" });
    const exact = await searchCodes(db, ["icd-10-am"], "M545");
    expect(exact[0]?.code).toBe("M54.5");
    const words = await searchCodes(db, [systemUrl("imaging")], "x-ray knee");
    expect(words.map((h) => h.code)).toEqual(["IMG-3005"]);
    // Arabic, behind the article and with another alef form: "الصدر" is found by "صدر".
    expect((await searchCodes(db, ["imaging"], "صدر")).map((h) => h.code)).toContain("IMG-3001");
    expect((await searchCodes(db, ["imaging"], "اشعه سينيه للصدر")).map((h) => h.code)).toEqual(["IMG-3001"]);
    // Several systems at once; an unknown system is ignored.
    const both = await searchCodes(db, ["laboratory", "imaging", "nonsense"], "ultrasound");
    expect(both.length).toBeGreaterThan(3);
    expect(new Set(both.map((h) => h.system))).toEqual(new Set([systemUrl("imaging")]));
    // Description starting with the word comes first, shorter first.
    const sugar = await searchCodes(db, ["laboratory"], "blood");
    expect(sugar[0]?.code).toBe("LAB-4017");
    expect(await searchCodes(db, ["nonsense"], "a")).toEqual([]);
    expect(await searchCodes(db, ["laboratory"], "zzzz")).toEqual([]);
  });

  it("holds the Minimum Data Set's value sets: demo entries in their order, then a clinic's import is what the visit details offer and accept", async () => {
    const db = database.db;
    const demo = await mdsCodeLists(db);
    expect(Object.keys(demo).sort()).toEqual([...mds.MDS_LIST_KEYS].sort());
    expect(demo["triage-category"].map((l) => l.code)).toEqual(["I", "VU", "U", "S", "NS"]);
    expect(demo["pulse-absence-reason"]).toEqual(mds.ABSENCE_REASONS);
    expect((await specialtyNames(db, ["08.00", "99.99"]))["08.00"]).toEqual({ en: "Internal medicine", ar: "الطب الباطني" });

    // An emergency visit coded in the demo list passes; the clinic then imports the exchange's own triage list.
    const emergency = (triageCategory: string, lists?: mds.MdsCodeLists) =>
      clinicalIssues({
        use: "preauthorization",
        claimType: "professional",
        subtype: "emr",
        diagnoses: ["J06.9"],
        discharge: "",
        clinical: { ...EMPTY_CLINICAL, encounter: { ...EMPTY_CLINICAL.encounter, triageCategory } },
        ...(lists ? { lists } : {}),
      }).filter((i) => i.path.join(".") === "clinical.encounter.triageCategory");
    expect(emergency("VU", demo)).toEqual([]);
    const summary = await importCodes(db, { system: "triage-category", format: "csv", chunks: chunks("code,display,display_ar\nT1,Resuscitation,إنعاش\nT2,Emergent,طارئ\n"), importedBy: "test" });
    expect(summary).toMatchObject({ imported: 2, refused: 0 });
    const imported = await mdsCodeLists(db);
    expect(imported["triage-category"]).toEqual([
      { code: "T1", en: "Resuscitation", ar: "إنعاش" },
      { code: "T2", en: "Emergent", ar: "طارئ" },
    ]);
    expect(imported["admit-source"]).toEqual(demo["admit-source"]);
    expect(emergency("T2", imported)).toEqual([]);
    expect(emergency("VU", imported)).toEqual([{ path: ["clinical", "encounter", "triageCategory"], message: "codeNotInList" }]);
    // Without the catalogue's lists the check falls back to the demo list.
    expect(emergency("T2")).toEqual([{ path: ["clinical", "encounter", "triageCategory"], message: "codeNotInList" }]);
  });

  it("imports a CSV as a new version: counts imported, updated, unchanged and refused; the demo codes go", async () => {
    const db = database.db;
    const first = await importCodes(db, {
      system: "laboratory",
      format: "csv",
      chunks: csv("code,display,display_ar\nX-1,Ferritin level,مستوى الفيريتين\nX-2,Lactate,\n,missing,\n"),
      version: "v1",
      importedBy: "test",
    });
    expect(first).toMatchObject({ version: "v1", imported: 2, updated: 0, unchanged: 0, refused: 1, problems: [{ line: 4, message: "the code is empty" }] });
    expect(await searchCodes(db, ["laboratory"], "blood count")).toEqual([]);
    expect((await searchCodes(db, ["laboratory"], "فيريتين"))[0]).toMatchObject({ code: "X-1", version: "v1" });
    const second = await importCodes(db, {
      system: systemUrl("laboratory"),
      format: "csv",
      chunks: csv("code,display\nX-1,Ferritin level\nX-2,Lactate\nX-3,Ammonia\n"),
      importedBy: "test",
    });
    // X-1 lost its Arabic (updated), X-2 the same, X-3 new.
    expect(second).toMatchObject({ imported: 1, updated: 1, unchanged: 1, refused: 0 });
    expect((await lookupCodes(db, "laboratory", ["X-1", "X-3", "nope"])).map((h) => [h.code, h.version]).sort()).toEqual([
      ["X-1", second.version],
      ["X-3", second.version],
    ]);
  });

  it("imports a FHIR CodeSystem named by its url, and refuses a mismatched or unknown system whole", async () => {
    const db = database.db;
    const cs = (url: string) => JSON.stringify({ resourceType: "CodeSystem", url, version: "2026-03", concept: [{ code: "IM-9", display: "Hand scan", designation: [{ language: "ar", value: "مسح اليد" }] }, { code: "" }] });
    const summary = await importCodes(db, { format: "fhir", chunks: chunks(cs(systemUrl("imaging"))), importedBy: "test" });
    expect(summary).toMatchObject({ version: "2026-03", imported: 1, refused: 1, problems: [{ line: 1, message: "the code is empty" }] });
    await expect(importCodes(db, { system: "laboratory", format: "fhir", chunks: chunks(cs(systemUrl("imaging"))), importedBy: "test" })).rejects.toThrow(CodeFileError);
    await expect(importCodes(db, { format: "fhir", chunks: chunks(cs("http://example.org/other")), importedBy: "test" })).rejects.toThrow(/not one of the catalogue's code systems/);
    await expect(importCodes(db, { system: "imaging", format: "csv", chunks: chunks("code,display\n"), importedBy: "test" })).rejects.toThrow(/no codes/);
  });
});

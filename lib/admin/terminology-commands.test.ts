import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/testing/databases";
import { databaseCommands } from "./commands";
import { CommandInputError } from "./types";
import { CATALOGUE_SYSTEMS } from "@/lib/terminology";

const importCommand = databaseCommands.find((c) => c.name === "terminology:import")!;
const listCommand = databaseCommands.find((c) => c.name === "terminology:list")!;

describe.each(testDatabases())("terminology:import on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let dir: string;
  beforeAll(async () => {
    database = await target.open();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cx-terms-"));
  }, 120_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await database?.dispose();
  });
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };
  const run = (flags: Record<string, string>) =>
    importCommand.run({ flags: Object.fromEntries(Object.entries(flags).map(([k, v]) => [k, [v]])), stdin: async () => "", db: database.db });

  it("imports a CSV from a file, printing counts and each refused line by number", async () => {
    const from = file("procedures.csv", "code,display,display_ar\nP-1,Wound care,العناية بالجروح\nP-1,Twice,\nP 2,Bad code,\n");
    const result = await run({ from, system: "procedures", version: "2026.1" });
    expect(result.text).toBe(
      `Imported into ${(result.json as { system: string }).system} as version 2026.1: 1 new, 0 updated, 0 unchanged, 2 refused.\n  line 3: the code P-1 was already given on line 2\n  line 4: the code "P 2" contains a space`,
    );
    expect((await listCommand.run({ flags: {}, stdin: async () => "", db: database.db })).text).toMatch(/^procedures\s+1 codes\s+version 2026\.1 \(csv, /m);
  });

  it("takes a FHIR CodeSystem by its url and refuses unreadable files whole, in words (exit 2)", async () => {
    const cs = file("lab.json", JSON.stringify({ resourceType: "CodeSystem", url: "http://nphies.sa/terminology/CodeSystem/laboratory", version: "7", concept: [{ code: "L-1", display: "Sodium" }] }));
    expect((await run({ from: cs })).json).toMatchObject({ version: "7", imported: 1, refused: 0 });
    await expect(run({ from: file("x.csv", "code,display\nA,B\n") })).rejects.toThrow(new CommandInputError(`--system is required for a CSV file (${CATALOGUE_SYSTEMS.map((s) => s.key).join(" | ")}).`));
    await expect(run({ from: file("y.csv", "a;b\n"), system: "imaging" })).rejects.toThrow(/^Nothing imported: /);
    await expect(run({ from: file("z.json", "{not json"), format: "fhir" })).rejects.toThrow(/Nothing imported: The file is not valid JSON/);
    await expect(run({ from: path.join(dir, "missing.csv"), system: "imaging" })).rejects.toThrow(/Cannot read .*: ENOENT/);
    await expect(run({ from: file("w.txt", "x"), system: "imaging" })).rejects.toThrow(/--format must be csv or fhir/);
  });
});

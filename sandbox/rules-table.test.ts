import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nphies } from "../lib/fhir";
import { README, TABLE_END, TABLE_START, rulesTable } from "./rules-table";

describe("sandbox/README.md lists every rule of the catalogue (decision 104)", () => {
  it("its rules table is the one generated from the catalogue (node --import tsx sandbox/rules-table.ts --write)", () => {
    const readme = readFileSync(README, "utf8");
    const table = readme.slice(readme.indexOf(TABLE_START), readme.indexOf(TABLE_END) + TABLE_END.length);
    expect(table).toBe(rulesTable());
  });

  it("names each rule's code, where the guide says it and an example", () => {
    const table = rulesTable();
    for (const rule of Object.values(nphies.RULES)) {
      expect(table).toContain(`| ${rule.code} |`);
      expect(table).toContain(rule.guide.replace(/\|/g, "\\|"));
    }
  });
});

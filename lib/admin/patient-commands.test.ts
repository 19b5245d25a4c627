import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditEvents, coverages, insurers, patients } from "@/lib/db/schema";
import { nationalIdCheckDigit } from "@/lib/fhir/national-id";
import { testDatabases } from "@/lib/testing/databases";
import { databaseCommands } from "./commands";
import { CommandInputError } from "./types";
import type { ImportLine } from "./patient-commands";

const command = databaseCommands.find((c) => c.name === "patient:import")!;
const validId = (body: string) => `${body}${nationalIdCheckDigit(body)}`;

for (const target of testDatabases()) {
  describe(`patient:import (${target.name})`, () => {
    let database: Awaited<ReturnType<typeof target.open>>;
    beforeAll(async () => {
      database = await target.open();
      await database.db.insert(insurers).values({ id: "payer-one", nameEn: "Payer One", nameAr: "الدافع الأول" });
    }, 120_000);
    afterAll(() => database?.dispose());

    const run = async (input: string) =>
      (await command.run({ flags: {}, stdin: async () => input, db: database.db })).json as { created: number; existing: number; refused: number; lines: ImportLine[] };

    it("registers good records with their coverages and reports each bad one by number with the form's words", async () => {
      const good = validId("104857361");
      const records = [
        { patient: { nationalId: good, givenName: "Sara", familyName: "Import", birthDate: "1991-02-03", gender: "female", phone: "" }, coverages: [{ insurerId: "payer-one", memberId: "M-1", coverageRef: "cov-import-1", coverageClass: "VIP", network: "net-a" }] },
        { patient: { nationalId: "1234567890", givenName: "Bad", familyName: "Digit", birthDate: "1991-02-03", gender: "male", phone: "" } },
        { patient: { nationalId: validId("104857362"), givenName: "", familyName: "X", birthDate: "2999-01-01", gender: "male", phone: "" } },
        { patient: { nationalId: validId("104857363"), givenName: "No", familyName: "Payer", birthDate: "1980-01-01", gender: "male", phone: "" }, coverages: [{ insurerId: "payer-none", memberId: "M-2", coverageRef: "cov-import-2" }] },
      ];
      const result = await run(records.map((r) => JSON.stringify(r)).join("\n"));
      expect(result).toMatchObject({ created: 2, existing: 0, refused: 2 });
      expect(result.lines[0]).toMatchObject({ line: 1, outcome: "created" });
      expect(result.lines[0]!.coverageIds).toHaveLength(1);
      expect(result.lines[1]).toMatchObject({ line: 2, outcome: "refused" });
      expect(result.lines[1]!.problems!.join()).toMatch(/patient\.nationalId: This number is not valid \(the last digit does not match\)/);
      expect(result.lines[2]!.problems!.some((p) => p.startsWith("patient.givenName: "))).toBe(true);
      expect(result.lines[2]!.problems!.some((p) => p.startsWith("patient.birthDate"))).toBe(true);
      // The patient is kept; the coverage naming an unknown payer is reported.
      expect(result.lines[3]).toMatchObject({ outcome: "created", coverageIds: [] });
      expect(result.lines[3]!.problems).toEqual(["coverages.0.insurerId: no active insurer has the id payer-none"]);

      const [row] = await database.db.select().from(patients).where(eq(patients.nationalId, good));
      expect(row).toMatchObject({ givenName: "Sara", familyName: "Import", birthDate: "1991-02-03" });
      // The coverage keeps its class and network (they choose the contract's rows, decision 089).
      expect((await database.db.select().from(coverages).where(eq(coverages.patientId, row!.id))).map((c) => [c.coverageClass, c.network])).toEqual([["VIP", "net-a"]]);

      // Importing again finds the patient registered and does not duplicate it.
      const again = await run(JSON.stringify([records[0]]));
      expect(again).toMatchObject({ created: 0, existing: 1, refused: 0 });
      expect(again.lines[0]!.patientId).toBe(row!.id);

      // The audit entry holds counts, never the records.
      const entries = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "patient.import"));
      expect(entries).toHaveLength(2);
      expect(JSON.stringify(entries)).not.toContain(good);
    });

    it("refuses input that is not JSON, with the line", async () => {
      await expect(run("")).rejects.toBeInstanceOf(CommandInputError);
      await expect(run('{"patient": {}}\nnot json')).rejects.toThrow(/Line 2 is not valid JSON/);
      await expect(run("[oops")).rejects.toThrow(/not valid JSON/);
    });
  });
}

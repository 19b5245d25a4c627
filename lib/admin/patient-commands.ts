import { z } from "zod";
import { env } from "@/lib/env";
import { englishMessages as en } from "@/lib/i18n";
import { addCoverageFields, expiryNotBeforeStart, registerPatientSchema, addCoverage, registerPatient } from "@/lib/patients";
import { dbCommand } from "./db-command";
import { CommandInputError } from "./types";

/**
 * `patient:import`: registers patients (and their coverages) from a JSON array or JSON lines on
 * standard input — how a clinic brings its existing patient list, and how the browser tests create
 * the patients each test owns. Every record goes through the registration form's own schema; a bad
 * record is reported by its number with the form's words and never stops the good ones.
 */

const MAX_RECORDS = 5_000;

const coverageInput = addCoverageFields.omit({ patientId: true }).superRefine(expiryNotBeforeStart);
const recordSchema = z.object({
  patient: z.unknown(),
  coverages: z.array(z.unknown()).max(10, "at most 10 coverages per patient").default([]),
});

export interface ImportLine {
  line: number;
  outcome: "created" | "existing" | "refused";
  patientId?: string;
  coverageIds?: string[];
  problems?: string[];
}

const FORM_WORDS: Record<string, string> = en.patients.errors;
const words = (issues: z.core.$ZodIssue[], prefix: string) =>
  issues.map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join(".")}: ${FORM_WORDS[i.message] ?? i.message}`);

/** Splits standard input into records: one JSON array, or one JSON object a line. */
export function parseImportInput(text: string): unknown[] {
  const trimmed = text.trim();
  if (!trimmed) throw new CommandInputError("Standard input is empty: pass a JSON array of {patient, coverages} records, or one record a line.");
  let records: unknown[];
  if (trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      records = Array.isArray(parsed) ? parsed : [];
    } catch (error) {
      throw new CommandInputError(`Standard input is not valid JSON: ${(error as Error).message}.`);
    }
  } else {
    records = trimmed.split(/\r?\n/).map((line, i) => {
      if (!line.trim()) return undefined;
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new CommandInputError(`Line ${i + 1} is not valid JSON.`);
      }
    });
  }
  if (records.length > MAX_RECORDS) throw new CommandInputError(`At most ${MAX_RECORDS} records per import (got ${records.length}): split the file.`);
  return records;
}

export const patientCommands = [
  dbCommand({
    name: "patient:import",
    readsStdin: true,
    summary: "Register patients and their coverages from JSON on standard input; bad records are reported, good ones kept.",
    usage: 'patient:import < patients.json   (records: {"patient": {nationalId, givenName, familyName, birthDate, gender, phone}, "coverages": [{insurerId, memberId, coverageRef, network?, coverageClass?}]})',
    async run({ stdin, db, audit }) {
      const records = parseImportInput(await stdin());
      const patientSchema = registerPatientSchema({ allowSandboxTestIds: env().PLATFORM_ENV === "sandbox" });
      const lines: ImportLine[] = [];
      for (const [index, record] of records.entries()) {
        const line = index + 1;
        if (record === undefined) continue;
        const shape = recordSchema.safeParse(record);
        if (!shape.success) {
          lines.push({ line, outcome: "refused", problems: words(shape.error.issues, "") });
          continue;
        }
        const patient = patientSchema.safeParse(shape.data.patient ?? {});
        const coverages = shape.data.coverages.map((c) => coverageInput.safeParse(c));
        const problems = [
          ...(patient.success ? [] : words(patient.error.issues, "patient")),
          ...coverages.flatMap((c, i) => (c.success ? [] : words(c.error.issues, `coverages.${i}`))),
        ];
        if (!patient.success || problems.length > 0) {
          lines.push({ line, outcome: "refused", problems });
          continue;
        }
        const registered = await registerPatient(db, patient.data);
        const patientId = registered.ok ? registered.patient.id : registered.existingId;
        const coverageIds: string[] = [];
        const refused: string[] = [];
        for (const [i, c] of coverages.entries()) {
          if (!c.success) continue;
          const added = await addCoverage(db, { ...c.data, patientId });
          if (added.ok) coverageIds.push(added.coverage.id);
          else if (added.reason === "unknown_insurer") refused.push(`coverages.${i}.insurerId: no active insurer has the id ${c.data.insurerId}`);
          else if (added.reason === "duplicate") refused.push(`coverages.${i}.memberId: ${FORM_WORDS.coverageDuplicate}`);
        }
        lines.push({ line, outcome: registered.ok ? "created" : "existing", patientId, coverageIds, ...(refused.length ? { problems: refused } : {}) });
      }
      const count = (o: ImportLine["outcome"]) => lines.filter((l) => l.outcome === o).length;
      const summary = { created: count("created"), existing: count("existing"), refused: count("refused") };
      // Counts only: the records are patient data.
      await audit({ action: "patient.import", outcome: "success", details: summary });
      const refusedText = lines
        .filter((l) => l.problems?.length)
        .map((l) => `  record ${l.line}: ${l.problems!.join("; ")}`)
        .join("\n");
      return {
        text: `Created ${summary.created}, already registered ${summary.existing}, refused ${summary.refused}.${refusedText ? `\n${refusedText}` : ""}`,
        json: { ...summary, lines },
      };
    },
  }),
];

import fs from "node:fs";
import { importContracts, type ContractDiff, type ContractLineError } from "@/lib/contracts";
import { englishMessages as en } from "@/lib/i18n";
import { formatMinorUnits } from "@/lib/fhir";
import { CLI_ACTOR, dbCommand } from "./db-command";
import { CommandInputError, single, type AdminCommand } from "./types";

/**
 * `contract:import --from <file.csv> [--dry-run]`: a payer price list in the shared CSV format
 * (docs/decisions/089). Bad lines are listed by number with their column and nothing is written;
 * otherwise the diff (added, changed, removed) is printed and applied.
 */

const PROBLEM_WORDS: Record<string, string> = en.contracts.errors;

export function errorLines(errors: readonly ContractLineError[]): string[] {
  return errors.map((e) => `line ${e.line}, ${e.column}: ${PROBLEM_WORDS[e.problem] ?? e.problem}${e.value ? ` (${e.value})` : ""}`);
}

export function diffLines(diff: ContractDiff): string[] {
  const name = (c: { insurerId: string; system: string; code: string; network: string; coverageClass: string; effectiveFrom: string }) =>
    `${c.insurerId} ${c.system} ${c.code}${c.network ? ` network ${c.network}` : ""}${c.coverageClass ? ` class ${c.coverageClass}` : ""} from ${c.effectiveFrom}`;
  return [
    ...diff.added.map((c) => `+ ${name(c)}: ${formatMinorUnits(c.after!.priceMinor)}`),
    ...diff.changed.map((c) => `~ ${name(c)}: ${formatMinorUnits(c.before!.priceMinor)} → ${formatMinorUnits(c.after!.priceMinor)}`),
    ...diff.removed.map((c) => `- ${name(c)}: ${formatMinorUnits(c.before!.priceMinor)}`),
    `${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged} unchanged`,
  ];
}

export const contractCommands: AdminCommand[] = [
  dbCommand({
    name: "contract:import",
    summary: "Import a payer price list (CSV): errors by line, the diff of what changed",
    usage: "contract:import --from <file.csv> [--dry-run]",
    async run({ db, flags }) {
      const file = single(flags, "from")!;
      if (!fs.existsSync(file)) throw new CommandInputError(`No file ${file}.`);
      const dryRun = flags["dry-run"]?.[0] === "true";
      const result = await importContracts(db, { actor: CLI_ACTOR }, fs.readFileSync(file, "utf8"), { dryRun, fileName: file.split(/[\\/]/).pop() });
      if (!result.ok) throw new CommandInputError([`The price list has ${result.errors.length} bad line(s); nothing was imported:`, ...errorLines(result.errors)].join("\n"));
      return {
        text: [dryRun ? "Dry run: nothing written." : `Imported ${result.rows} price(s) for ${result.insurers.join(", ")}.`, ...diffLines(result.diff)].join("\n"),
        json: { applied: result.applied, insurers: result.insurers, rows: result.rows, diff: result.diff },
      };
    },
  }),
];

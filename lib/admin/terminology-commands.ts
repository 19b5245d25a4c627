import { CATALOGUE_SYSTEMS, CodeFileError, ImportTooLargeError, catalogueOverview, chunksOfFile, importCodes, type ImportFormat } from "@/lib/terminology";
import { dbCommand } from "./db-command";
import { CommandInputError, single } from "./types";

/**
 * `terminology:import` and `terminology:list` (docs/decisions/086): the clinic's licensed code
 * files into the catalogue, one version per import. The file is read from disk as it streams (the
 * CLI resolved its path where it was typed; on PGlite the portal reads it), so large sets never
 * travel through the admin socket; bad lines are listed by number, the good ones kept.
 */
const SYSTEM_KEYS = CATALOGUE_SYSTEMS.map((s) => s.key).join(" | ");

function formatOf(flag: string | undefined, file: string): ImportFormat {
  const given = flag ?? (/\.json$/i.test(file) ? "fhir" : /\.csv$/i.test(file) ? "csv" : undefined);
  if (given === "csv" || given === "fhir") return given;
  throw new CommandInputError(`--format must be csv or fhir${flag ? ` (got "${flag}")` : " (the file name does not end in .csv or .json)"}.`);
}

export const terminologyCommands = [
  dbCommand({
    name: "terminology:import",
    summary: "Import a code file (CSV with code,display[,display_ar] or a FHIR CodeSystem JSON) into the code catalogue as a new version.",
    usage: `terminology:import --from <file.csv|file.json> [--system ${SYSTEM_KEYS}] [--format csv|fhir] [--version <v>]`,
    async run({ flags, db, audit }) {
      const from = single(flags, "from")!;
      const format = formatOf(single(flags, "format", false), from);
      const system = single(flags, "system", false);
      if (format === "csv" && !system) throw new CommandInputError(`--system is required for a CSV file (${SYSTEM_KEYS}).`);
      let chunks: AsyncIterable<string>;
      try {
        chunks = chunksOfFile(from);
      } catch (error) {
        if (error instanceof ImportTooLargeError) throw new CommandInputError(error.message);
        throw new CommandInputError(`Cannot read ${from}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}.`);
      }
      let summary;
      try {
        summary = await importCodes(db, { system, format, chunks, version: single(flags, "version", false), fileName: from.split(/[\\/]/).pop(), importedBy: "admin-cli" });
      } catch (error) {
        if (error instanceof CodeFileError || error instanceof ImportTooLargeError) {
          await audit({ action: "terminology.import", outcome: "failure", details: { system: system ?? null, format, reason: error.message } });
          throw new CommandInputError(`Nothing imported: ${error.message}`);
        }
        throw error;
      }
      const { problems, ...counts } = summary;
      await audit({ action: "terminology.import", target: { type: "terminology_import", id: summary.id }, outcome: "success", details: { ...counts } });
      const shown = problems.map((p) => `  line ${p.line}: ${p.message}`).join("\n");
      const more = summary.refused > problems.length ? `\n  … and ${summary.refused - problems.length} more refused lines` : "";
      return {
        text: `Imported into ${summary.system} as version ${summary.version}: ${summary.imported} new, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.refused} refused.${shown ? `\n${shown}${more}` : ""}`,
        json: summary,
      };
    },
  }),
  dbCommand({
    name: "terminology:list",
    summary: "List the code catalogue's systems with their number of codes and latest imports.",
    usage: "terminology:list",
    async run({ db }) {
      const overview = await catalogueOverview(db, 3);
      const text = overview
        .map((o) => {
          const last = o.imports[0];
          return `${o.system.key.padEnd(17)} ${String(o.codes).padStart(7)} codes  ${last ? `version ${last.version} (${last.format}, ${last.createdAt.toISOString().slice(0, 16)}Z)` : "no import"}`;
        })
        .join("\n");
      return { text, json: overview.map((o) => ({ system: o.system.key, url: o.system.url, codes: o.codes, imports: o.imports })) };
    },
  }),
];

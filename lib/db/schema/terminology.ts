import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * One import of a code set into the catalogue (docs/decisions/086): the clinic's licensed file
 * (CSV or a FHIR CodeSystem) or the demo catalogue that ships. Each is a version of its system;
 * the counts and the first refused lines (line number and words) are kept for Settings and the CLI.
 */
export const terminologyImports = pgTable(
  "terminology_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    system: text("system").notNull(),
    /** The file's own version (CodeSystem.version, --version) or the time of the import. */
    version: text("version").notNull(),
    /** csv | fhir | demo */
    format: text("format").notNull(),
    fileName: text("file_name"),
    imported: integer("imported").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    refused: integer("refused").notNull().default(0),
    /** The first refused lines: `[{ line, message }]` (at most 200). */
    problems: jsonb("problems").$type<{ line: number; message: string }[]>().notNull().default([]),
    /** Who imported it: a user id, or `admin-cli` / `demo`. */
    importedBy: text("imported_by").notNull(),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("terminology_imports_system_idx").on(t.system, t.createdAt)],
);

/**
 * The catalogue: one row per code of a system, as the latest import left it. `search_code` (the
 * code folded: lower case, no dots or spaces) serves code search by prefix; `search_words` (both
 * descriptions folded, Arabic article forms added) becomes the stored `simple` text-search vector
 * `search_vector` that word search matches through a GIN index (drizzle/0020_terminology.sql).
 */
export const terminologyCodes = pgTable(
  "terminology_codes",
  {
    system: text("system").notNull(),
    code: text("code").notNull(),
    displayEn: text("display_en").notNull(),
    displayAr: text("display_ar").notNull().default(""),
    searchCode: text("search_code").notNull(),
    searchWords: text("search_words").notNull(),
    searchVector: tsvector("search_vector").generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, search_words)`),
    version: text("version").notNull(),
    importId: uuid("import_id").notNull(),
    updatedAt: utc("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.system, t.code] }),
    // Code prefix alone (not system first): then word search cannot wander into a scan of a
    // whole system and always uses the GIN index (docs/decisions/086).
    index("terminology_codes_search_code_idx").on(sql`${t.searchCode} text_pattern_ops`),
    index("terminology_codes_words_idx").using("gin", t.searchVector),
  ],
);

import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { queryRows, tables, type Db } from "@/lib/db";
import * as mds from "@/lib/fhir/mds";
import { DEMO_CATALOGUE } from "./demo-catalogue";
import { foldCode, prefixQuery, searchWordsOf, wordsOf } from "./fold";
import { CodeFileError, linesOf, parseCodeSystem, parseCsv, type LineProblem, type ParsedLine } from "./parse";
import { CATALOGUE_SYSTEMS, catalogueSystem, type CatalogueSystem } from "./systems";

const { terminologyCodes: codes, terminologyImports: imports } = tables;

/** Version of the demo codes (a clinic's import of a system removes them). */
export const DEMO_VERSION = "demo";
/** Refused lines kept with an import (the counts cover all of them). */
const KEPT_PROBLEMS = 200;
const BATCH = 500;
/** Word matches ranked per search at most (the rest of a very broad match is not looked at). */
const RANKED_CANDIDATES = 300;

export interface ImportSummary {
  id: string;
  system: string;
  version: string;
  format: "csv" | "fhir" | "demo";
  imported: number;
  updated: number;
  unchanged: number;
  refused: number;
  /** The first refused lines (all are counted in `refused`). */
  problems: LineProblem[];
}

export type ImportFormat = "csv" | "fhir";

export interface ImportInput {
  /** Key or URL of a catalogue system; for a CodeSystem it may be left out (its `url` names it). */
  system?: string;
  format: ImportFormat;
  /** The file as text chunks (CSV is read line by line as they come; a CodeSystem is parsed whole). */
  chunks: AsyncIterable<string>;
  version?: string;
  fileName?: string;
  importedBy: string;
}

/** A refusal of the whole import (unknown system, not a CodeSystem …): nothing was imported. */
export { CodeFileError };

function timeVersion(now = new Date()): string {
  return now.toISOString().slice(0, 16).replace("T", " ");
}

function systemOf(given: string | undefined): CatalogueSystem {
  const system = given ? catalogueSystem(given) : undefined;
  if (!system) {
    throw new CodeFileError(
      `${given ? `"${given}" is not one of the catalogue's code systems` : "Name the code system"}: ${CATALOGUE_SYSTEMS.map((s) => s.key).join(", ")} (or their URLs).`,
    );
  }
  return system;
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

/**
 * Imports a code file into the catalogue as one new version of its system, in one transaction: a
 * code not there yet is imported, one whose words changed is updated, the same one is unchanged,
 * and a bad line is refused with its line number and the reason in words — the good lines are
 * kept. The first real import of a system removes its demo codes. A file that cannot be read at
 * all (not a CodeSystem, no header, too large) throws CodeFileError and imports nothing.
 */
export async function importCodes(db: Db, input: ImportInput): Promise<ImportSummary> {
  let system: CatalogueSystem;
  let version = input.version?.trim().slice(0, 64) || undefined;
  let records: AsyncIterable<ParsedLine> | Iterable<ParsedLine>;
  if (input.format === "fhir") {
    const file = parseCodeSystem(await collect(input.chunks));
    const named = input.system ? systemOf(input.system) : systemOf(file.url);
    if (input.system && file.url && file.url !== named.url) {
      throw new CodeFileError(`The CodeSystem's url is ${file.url}, not the ${named.key} system (${named.url}).`);
    }
    system = named;
    version ??= file.version;
    records = file.records;
  } else {
    system = systemOf(input.system);
    records = parseCsv(linesOf(input.chunks));
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(imports)
      .values({ system: system.url, version: version ?? timeVersion(), format: input.format, fileName: input.fileName?.slice(0, 200) ?? null, importedBy: input.importedBy })
      .returning({ id: imports.id, version: imports.version });
    await tx.delete(codes).where(and(eq(codes.system, system.url), eq(codes.version, DEMO_VERSION)));
    const summary: ImportSummary = { id: row!.id, system: system.url, version: row!.version, format: input.format, imported: 0, updated: 0, unchanged: 0, refused: 0, problems: [] };
    let batch: Extract<ParsedLine, { ok: true }>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const counts = await upsert(tx, system.url, summary.version, summary.id, batch);
      summary.imported += counts.imported;
      summary.updated += counts.updated;
      summary.unchanged += counts.unchanged;
      batch = [];
    };
    for await (const parsed of records) {
      if (!parsed.ok) {
        summary.refused++;
        if (summary.problems.length < KEPT_PROBLEMS) summary.problems.push({ line: parsed.line, message: parsed.message });
        continue;
      }
      batch.push(parsed);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    if (summary.imported + summary.updated + summary.unchanged === 0 && summary.refused === 0) throw new CodeFileError("The file holds no codes.");
    // Fresh statistics, so the planner picks the indexes for a catalogue that just grew.
    await tx.execute(sql`analyze terminology_codes`);
    await tx
      .update(imports)
      .set({ imported: summary.imported, updated: summary.updated, unchanged: summary.unchanged, refused: summary.refused, problems: summary.problems })
      .where(eq(imports.id, summary.id));
    return summary;
  });
}

/** Writes one batch of codes and counts what was new, changed and the same. */
async function upsert(db: Db, system: string, version: string, importId: string, batch: { code: string; en: string; ar: string }[]) {
  const existing = await db
    .select({ code: codes.code, en: codes.displayEn, ar: codes.displayAr })
    .from(codes)
    .where(and(eq(codes.system, system), inArray(codes.code, batch.map((r) => r.code))));
  const before = new Map(existing.map((e) => [e.code, e]));
  let imported = 0;
  let updated = 0;
  let unchanged = 0;
  const writes = batch.filter((r) => {
    const old = before.get(r.code);
    if (!old) imported++;
    else if (old.en !== r.en || old.ar !== r.ar) updated++;
    else {
      unchanged++;
      return false;
    }
    return true;
  });
  if (writes.length > 0) {
    await db
      .insert(codes)
      .values(writes.map((r) => ({ system, code: r.code, displayEn: r.en, displayAr: r.ar, searchCode: foldCode(r.code), searchWords: searchWordsOf(r.code, r.en, r.ar), version, importId })))
      .onConflictDoUpdate({
        target: [codes.system, codes.code],
        set: { displayEn: sql`excluded.display_en`, displayAr: sql`excluded.display_ar`, searchCode: sql`excluded.search_code`, searchWords: sql`excluded.search_words`, version: sql`excluded.version`, importId: sql`excluded.import_id`, updatedAt: sql`now()` },
      });
  }
  return { imported, updated, unchanged };
}

const demoLoaded = new WeakMap<Db, Promise<void>>();

/**
 * Loads the demo catalogue for every system that has never had an import (once per process and
 * database): a fresh install can search at once, and a clinic's own import is never overwritten.
 */
export function ensureDemoCatalogue(db: Db): Promise<void> {
  let pending = demoLoaded.get(db);
  if (!pending) {
    pending = loadDemo(db).catch((error: unknown) => {
      demoLoaded.delete(db);
      throw error;
    });
    demoLoaded.set(db, pending);
  }
  return pending;
}

async function loadDemo(db: Db): Promise<void> {
  const done = new Set((await db.selectDistinct({ system: imports.system }).from(imports)).map((r) => r.system));
  for (const system of CATALOGUE_SYSTEMS) {
    if (done.has(system.url)) continue;
    const list = DEMO_CATALOGUE[system.key];
    await db.transaction(async (tx) => {
      // Two portal instances may start together: the second finds the first's import and stops.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`terminology-demo:${system.url}`}))`);
      const [already] = await tx.select({ id: imports.id }).from(imports).where(eq(imports.system, system.url)).limit(1);
      if (already) return;
      const [row] = await tx
        .insert(imports)
        .values({ system: system.url, version: DEMO_VERSION, format: "demo", fileName: null, importedBy: "demo", imported: list.length })
        .returning({ id: imports.id });
      await tx
        .insert(codes)
        .values(list.map(([code, en, ar]) => ({ system: system.url, code, displayEn: en, displayAr: ar, searchCode: foldCode(code), searchWords: searchWordsOf(code, en, ar), version: DEMO_VERSION, importId: row!.id })))
        .onConflictDoNothing();
    });
  }
}

export interface CodeHit {
  system: string;
  code: string;
  en: string;
  ar: string;
  version: string;
}

interface HitRow {
  system: string;
  code: string;
  en: string;
  ar: string;
  version: string;
}

/** Systems named by key or URL, kept to the catalogue's (unknown ones are dropped). */
function systemUrls(systems: readonly string[]): string[] {
  return [...new Set(systems.map((s) => catalogueSystem(s)?.url).filter((s): s is string => !!s))];
}

/**
 * The picker's search (docs/decisions/086): codes of the given systems matching what was typed,
 * best first — the exact code, then codes starting with it ("m54" → M54.5, dots and case aside),
 * then descriptions in which every typed word starts a word (English or Arabic, the Arabic article
 * aside), those whose description starts with the first word and shorter ones first.
 */
export async function searchCodes(db: Db, systems: readonly string[], query: string, limit = 20): Promise<CodeHit[]> {
  const urls = systemUrls(systems);
  if (urls.length === 0) return [];
  await ensureDemoCatalogue(db);
  const n = Math.max(1, Math.min(limit, 50));
  const inSystems = sql`${codes.system} in (${sql.join(
    urls.map((u) => sql`${u}`),
    sql`, `,
  )})`;
  const cols = sql`${codes.system} as system, ${codes.code} as code, ${codes.displayEn} as en, ${codes.displayAr} as ar, ${codes.version} as version`;
  const q = query.trim().slice(0, 100);
  if (!q) {
    return queryRows<HitRow>(db, sql`select ${cols} from ${codes} where ${inSystems} order by ${codes.system}, ${codes.code} limit ${n}`);
  }
  const code = foldCode(q);
  const words = prefixQuery(q);
  const first = wordsOf(q)[0] ?? "";
  const hits: HitRow[] = [];
  if (code) {
    hits.push(
      ...(await queryRows<HitRow>(
        db,
        sql`select * from ((select ${cols}, 0 as rank from ${codes} where ${inSystems} and ${codes.searchCode} = ${code})
            union all
            (select ${cols}, 1 as rank from ${codes} where ${codes.searchCode} like ${`${code}%`} and ${codes.searchCode} <> ${code} and ${inSystems} limit ${n})) found
            order by rank, length(code), code limit ${n}`,
      )),
    );
    // A code typed (one token with a digit) that matched codes is answered by them alone: its
    // digits as words would only add noise, and skipping them keeps the answer fast.
    if (hits.length >= n || (hits.length > 0 && /\d/.test(q) && !/\s/.test(q))) return hits.map(hitOf);
  }
  if (words) {
    // Ranked among the first RANKED_CANDIDATES matches: a one-letter query matching half the
    // catalogue is answered from a bounded set (docs/decisions/086); any narrower query is ranked whole.
    const found = await queryRows<HitRow>(
      db,
      sql`select system, code, en, ar, version from (
            select ${cols}, ${codes.searchWords} as words, ${codes.searchCode} as k from ${codes}
            where ${codes.searchVector} @@ to_tsquery('simple'::regconfig, ${words}) and ${inSystems} limit ${RANKED_CANDIDATES}) candidates
          order by case when words like ${`${first}%`} then 0 else 1 end, length(en), k limit ${n}`,
    );
    const seen = new Set(hits.map((h) => `${h.system}|${h.code}`));
    hits.push(...found.filter((h) => !seen.has(`${h.system}|${h.code}`)));
  }
  return hits.slice(0, n).map(hitOf);
}

const hitOf = ({ system, code, en, ar, version }: HitRow): CodeHit => ({ system, code, en, ar, version });

/** The catalogue's entries for given codes of one system (chosen values shown with their words). */
export async function lookupCodes(db: Db, system: string, list: readonly string[]): Promise<CodeHit[]> {
  const url = catalogueSystem(system)?.url;
  const wanted = [...new Set(list.filter((c) => typeof c === "string" && c.length > 0 && c.length <= 64))].slice(0, 100);
  if (!url || wanted.length === 0) return [];
  await ensureDemoCatalogue(db);
  return db
    .select({ system: codes.system, code: codes.code, en: codes.displayEn, ar: codes.displayAr, version: codes.version })
    .from(codes)
    .where(and(eq(codes.system, url), inArray(codes.code, wanted)));
}

/**
 * Names of codes as claims carry them (system URL + code), e.g. the first service of a claim for
 * its label (lib/submissions/labels.ts). Codes the catalogue does not hold are simply absent.
 */
export async function codeNames(db: Db, list: readonly { system: string; code: string }[]): Promise<Map<string, { en: string; ar: string }>> {
  const wanted = list.filter((c) => c.system.length <= 300 && c.code.length > 0 && c.code.length <= 64).slice(0, 500);
  if (wanted.length === 0) return new Map();
  await ensureDemoCatalogue(db);
  const rows = await db
    .select({ system: codes.system, code: codes.code, en: codes.displayEn, ar: codes.displayAr })
    .from(codes)
    .where(and(inArray(codes.system, [...new Set(wanted.map((c) => c.system))]), inArray(codes.code, [...new Set(wanted.map((c) => c.code))])));
  return new Map(rows.map((r) => [`${r.system}|${r.code}`, { en: r.en, ar: r.ar }]));
}

/** Entries per list (at most this many are read: the Minimum Data Set's lists are short). */
const LIST_LIMIT = 500;

/**
 * The Minimum Data Set's value sets as the catalogue holds them now — the clinic's import, or the
 * demo entries (docs/decisions/118): what the visit details offer and the server accepts. The demo
 * order (triage 1 → 5 …) is kept for demo codes; imported codes follow by code.
 */
export async function mdsCodeLists(db: Db): Promise<mds.MdsCodeLists> {
  await ensureDemoCatalogue(db);
  const urls = mds.MDS_LIST_KEYS.map((key) => catalogueSystem(key)!.url);
  const rows = await db
    .select({ system: codes.system, code: codes.code, en: codes.displayEn, ar: codes.displayAr })
    .from(codes)
    .where(inArray(codes.system, urls))
    .orderBy(codes.system, codes.code)
    .limit(LIST_LIMIT * urls.length);
  const out = {} as Record<mds.MdsListKey, mds.Labelled[]>;
  for (const key of mds.MDS_LIST_KEYS) {
    const url = catalogueSystem(key)!.url;
    const demoOrder = new Map(mds.MDS_CODE_LISTS[key].map((l, i) => [l.code, i]));
    out[key] = rows
      .filter((r) => r.system === url)
      .slice(0, LIST_LIMIT)
      .map(({ code, en, ar }) => ({ code, en, ar }))
      .sort((a, b) => (demoOrder.get(a.code) ?? Infinity) - (demoOrder.get(b.code) ?? Infinity) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  }
  return out;
}

/** Practitioner specialties by code, in words (the catalogue's practice-codes). */
export async function specialtyNames(db: Db, list: readonly string[]): Promise<Record<string, { en: string; ar: string }>> {
  const hits = await lookupCodes(db, "specialties", list);
  return Object.fromEntries(hits.map((h) => [h.code, { en: h.en, ar: h.ar }]));
}

export interface SystemOverview {
  system: CatalogueSystem;
  codes: number;
  /** The latest imports of the system, newest first. */
  imports: (ImportSummary & { fileName: string | null; importedBy: string; createdAt: Date })[];
}

/** Settings: each system with its number of codes and its latest imports. */
export async function catalogueOverview(db: Db, importsPerSystem = 5): Promise<SystemOverview[]> {
  await ensureDemoCatalogue(db);
  const counts = await queryRows<{ system: string; n: number }>(db, sql`select system, count(*)::int as n from ${codes} group by system`);
  const recent = await db.select().from(imports).orderBy(desc(imports.createdAt)).limit(200);
  return CATALOGUE_SYSTEMS.map((system) => ({
    system,
    codes: Number(counts.find((c) => c.system === system.url)?.n ?? 0),
    imports: recent
      .filter((r) => r.system === system.url)
      .slice(0, importsPerSystem)
      .map((r) => ({
        id: r.id,
        system: r.system,
        version: r.version,
        format: r.format as ImportSummary["format"],
        imported: r.imported,
        updated: r.updated,
        unchanged: r.unchanged,
        refused: r.refused,
        problems: r.problems,
        fileName: r.fileName,
        importedBy: r.importedBy,
        createdAt: r.createdAt,
      })),
  }));
}

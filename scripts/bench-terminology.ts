/**
 * Benchmark of the code picker's search (docs/decisions/086): 100,000 codes of one system imported
 * through the real import (CSV, streamed), then the picker's queries timed on `searchCodes` —
 * exact codes, code prefixes of one to four characters, English and Arabic words of one to several
 * letters, two-word queries, queries over several systems and queries that match nothing.
 *
 *   npm run bench:terminology -- [--codes 100000] [--n 40] [--database-url postgres://127.0.0.1:5432/test]
 *
 * Runs on PGlite (in memory) and, when PostgreSQL answers (default postgres://postgres@127.0.0.1:5432/test,
 * a fresh database created beside it and dropped after), on PostgreSQL. Prints p50/p95/max per kind
 * of query and overall. Target: p95 ≤ 50 ms at 100,000 codes. Timing never fails the script.
 */
import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { importCodes, searchCodes } from "@/lib/terminology";

function arg(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const hit = process.argv[i]!;
  if (hit.includes("=")) return hit.slice(hit.indexOf("=") + 1);
  const next = process.argv[i + 1];
  return next && !next.startsWith("--") ? next : "true";
}

const CODES = Number(arg("codes") ?? 100_000);
const N = Number(arg("n") ?? 40);

// A seeded generator: every run builds the same catalogue.
let seed = 20261125;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

const EN = (
  "blood sugar test scan chest knee ankle shoulder spine brain heart liver kidney thyroid urine culture panel level count " +
  "injection infusion tablet capsule syrup cream drops inhaler pen needle dressing suture removal repair biopsy drainage " +
  "ultrasound x-ray mri ct doppler echo consultation visit follow-up emergency review therapy session package day bed " +
  "left right upper lower both anterior posterior full partial simple complex with without contrast adult child newborn " +
  "dental tooth crown filling canal extraction denture gum scaling vitamin iron hormone antibody antigen screening"
).split(/\s+/);
const AR = (
  "الدم السكر فحص أشعة الصدر الركبة الكاحل الكتف العمود الدماغ القلب الكبد الكلى الغدة البول مزرعة لوحة مستوى تعداد " +
  "حقنة تسريب قرص كبسولة شراب كريم قطرة بخاخ قلم إبرة ضماد خياطة إزالة إصلاح خزعة تصريف صوتية مقطعية رنين دوبلر " +
  "استشارة زيارة متابعة طوارئ مراجعة علاج جلسة باقة يوم سرير أيسر أيمن علوي سفلي كامل جزئي بسيط معقد صبغة طفل بالغ " +
  "الأسنان السن تاج حشوة عصب خلع طقم اللثة تنظيف فيتامين الحديد هرمون أجسام مستضد مسح"
).split(/\s+/);

function codeOf(i: number): string {
  // A mix of shapes: letter + digits with a dot (diagnosis-like), dashed (exchange-like), digits (GTIN-like).
  const n = String(i).padStart(6, "0");
  if (i % 3 === 0) return `${String.fromCharCode(65 + (i % 26))}${n.slice(0, 2)}.${n.slice(2)}`;
  if (i % 3 === 1) return `${n.slice(0, 3)}-${n.slice(3)}-${i % 97}`;
  return `0628${n}${String(i % 10_000).padStart(4, "0")}`;
}

function* csvLines(): Generator<string> {
  yield "code,display,display_ar\n";
  for (let i = 0; i < CODES; i++) {
    const words = 3 + Math.floor(rand() * 4);
    const en = Array.from({ length: words }, () => pick(EN)).join(" ");
    const ar = Array.from({ length: words }, () => pick(AR)).join(" ");
    yield `${codeOf(i)},${en},${ar}\n`;
  }
}

async function* chunks(): AsyncGenerator<string> {
  let buffer = "";
  for (const line of csvLines()) {
    buffer += line;
    if (buffer.length > 64 * 1024) {
      yield buffer;
      buffer = "";
    }
  }
  if (buffer) yield buffer;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
const line = (name: string, samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  const [p50, p95, max] = [percentile(s, 50), percentile(s, 95), s.at(-1) ?? NaN];
  console.log(`  ${name.padEnd(34)} n=${String(s.length).padStart(4)}  p50 ${p50.toFixed(2).padStart(7)} ms  p95 ${p95.toFixed(2).padStart(7)} ms  max ${max.toFixed(2).padStart(7)} ms`);
  return { p50, p95 };
};

/** The kinds of query staff type, each with N samples (varied, so no one plan is cached). */
function queries(): Record<string, () => string> {
  return {
    "exact code": () => codeOf(Math.floor(rand() * CODES)),
    "code prefix, 1 char": () => pick(["a", "b", "0", "1", "m", "z"]),
    "code prefix, 2-4 chars": () => codeOf(Math.floor(rand() * CODES)).slice(0, 2 + Math.floor(rand() * 3)),
    "word, 1-2 letters": () => pick(EN).slice(0, 1 + Math.floor(rand() * 2)),
    "word, 3+ letters": () => pick(EN).slice(0, 3 + Math.floor(rand() * 4)),
    "two words": () => `${pick(EN)} ${pick(EN).slice(0, 3)}`,
    "Arabic word": () => pick(AR).slice(0, 2 + Math.floor(rand() * 3)),
    "Arabic two words": () => `${pick(AR)} ${pick(AR)}`,
    "no match": () => `qqq${Math.floor(rand() * 1000)}`,
  };
}

async function bench(name: string, database: Database): Promise<void> {
  console.log(`\n${name}: importing ${CODES.toLocaleString("en")} codes …`);
  const started = Date.now();
  const summary = await importCodes(database.db, { system: "services", format: "csv", chunks: chunks(), version: "bench", importedBy: "bench" });
  console.log(`  imported ${summary.imported.toLocaleString("en")} (refused ${summary.refused}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (database.kind === "postgres") await database.query("analyze terminology_codes");
  // Warm up (plans, caches) before timing.
  for (let i = 0; i < 20; i++) await searchCodes(database.db, ["services"], pick(EN));
  const all: number[] = [];
  for (const [kind, make] of Object.entries(queries())) {
    const samples: number[] = [];
    for (let i = 0; i < N; i++) {
      const q = make();
      const systems = kind === "two words" && i % 2 ? ["services", "procedures", "imaging", "laboratory"] : ["services"];
      const t0 = process.hrtime.bigint();
      await searchCodes(database.db, systems, q, 20);
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    line(kind, samples);
    all.push(...samples);
  }
  const { p95 } = line("ALL QUERIES", all);
  console.log(`  target p95 ≤ 50 ms at ${CODES.toLocaleString("en")} codes: ${p95 <= 50 ? "met" : "NOT met"}`);
}

async function main() {
  const pglite = await openDatabase({ kind: "pglite-memory" });
  try {
    await runMigrations(pglite);
    await bench("PGlite (in memory)", pglite);
  } finally {
    await pglite.close();
  }

  const adminUrl = arg("database-url") ?? "postgres://postgres@127.0.0.1:5432/test";
  const { Client } = await import("pg");
  const admin = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    console.log(`\nPostgreSQL at ${new URL(adminUrl).host} does not answer: skipped.`);
    return;
  }
  const dbName = `cx_bench_terms_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const pg = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 });
  try {
    await runMigrations(pg);
    await bench(`PostgreSQL (${url.host}, fresh database ${dbName})`, pg);
  } finally {
    await pg.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

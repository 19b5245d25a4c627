import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * lib/submissions is the only module that writes the `submissions` table (docs/decisions/062):
 * no other file — production code, script or test — inserts, updates or deletes its rows, with
 * drizzle or with SQL. (Migrations and their triggers are the schema's, not a writer.)
 */
const ROOT = join(__dirname, "..", "..");
const DRIZZLE_WRITE = /\.(insert|update|delete)\(\s*submissions\s*\)/;
const SQL_WRITE = /\b(insert\s+into|update|delete\s+from)\s+"?submissions"?\s/i;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

function writersOfSubmissions(): string[] {
  const files = ["lib", "app", "components", "scripts", "sandbox", "e2e"].flatMap((d) => sources(join(ROOT, d)));
  return files
    .map((path) => relative(ROOT, path))
    .filter((path) => !path.startsWith("lib/submissions/"))
    .filter((path) => {
      const text = readFileSync(join(ROOT, path), "utf8");
      return DRIZZLE_WRITE.test(text) || SQL_WRITE.test(text);
    });
}

/** The one emitter of live events (`announceLive` in states.ts): no other file inserts one or NOTIFYs. */
const EMITTER = "lib/submissions/states.ts";
const LIVE_WRITE = /\.insert\(\s*liveEvents\s*\)|insert\s+into\s+"?live_events"?|pg_notify\s*\(/i;

function emittersOfLiveEvents(): string[] {
  const files = ["lib", "app", "components", "scripts", "sandbox", "e2e"].flatMap((d) => sources(join(ROOT, d)));
  return files
    .map((path) => relative(ROOT, path))
    .filter((path) => path !== EMITTER && !path.endsWith("single-writer.test.ts"))
    .filter((path) => LIVE_WRITE.test(readFileSync(join(ROOT, path), "utf8")));
}

describe("live events have one emitter", () => {
  it("no file but lib/submissions/states.ts writes a live event or NOTIFYs", () => {
    expect(emittersOfLiveEvents()).toEqual([]);
    expect(LIVE_WRITE.test(readFileSync(join(ROOT, EMITTER), "utf8"))).toBe(true);
  });

  it("sees a drizzle insert, an SQL insert and a NOTIFY (the check itself)", () => {
    expect(LIVE_WRITE.test("await db.insert(liveEvents).values({ kind })")).toBe(true);
    expect(LIVE_WRITE.test("insert into live_events (kind) values ('x')")).toBe(true);
    expect(LIVE_WRITE.test("select pg_notify('cx_live', '1')")).toBe(true);
    expect(LIVE_WRITE.test("await db.select().from(liveEvents)")).toBe(false);
  });
});

describe("the submissions table has one writer", () => {
  it("no file outside lib/submissions writes it", () => {
    expect(writersOfSubmissions()).toEqual([]);
  });

  it("sees a drizzle write and an SQL write (the check itself)", () => {
    expect(DRIZZLE_WRITE.test("await tx.update(submissions).set({ status })")).toBe(true);
    expect(SQL_WRITE.test("await database.query(`update submissions set lease_owner = 'w1'`)")).toBe(true);
    expect(SQL_WRITE.test("insert into submissions (kind) values ('claim')")).toBe(true);
    expect(DRIZZLE_WRITE.test("await db.select().from(submissions)")).toBe(false);
  });
});

describe("a status changes only inside the owner", () => {
  it("the entry offers no transition(): other modules ask for an act (markCancelled, applyPlatformNews, retrySubmission …)", async () => {
    const entry = await import("@/lib/submissions");
    expect(Object.keys(entry)).not.toContain("transition");
    expect(Object.keys(entry)).toEqual(expect.arrayContaining(["markCancelled", "applyPlatformNews", "retrySubmission", "intake"]));
  });
});

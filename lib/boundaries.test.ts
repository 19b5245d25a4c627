import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { LIB_MAP, OWNED_TABLES, ownedTableBlocks } from "../eslint.config.mjs";
import { describe, expect, it } from "vitest";

/*
 * The boundaries are rules of `npm run lint` (eslint.config.mjs). This runs ESLint's own API on
 * small fixtures placed (virtually) in each layer: each deliberate violation must be reported, and
 * the allowed direction must not be.
 */
const eslint = new ESLint({ cwd: path.resolve(__dirname, "..") });

async function problems(file: string, code: string, linter: ESLint = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath: path.resolve(__dirname, "..", file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("lint boundaries", () => {
  it.each([
    ["lib/claims/fixture.ts", 'import { Button } from "@/components/ui/button";\nexport const x = Button;\n', /lib\/ may not import from app\/ or components\//],
    ["lib/claims/fixture.ts", 'import page from "@/app/(portal)/claims/page";\nexport const x = page;\n', /lib\/ may not import from app\//],
    ["components/claims/fixture.tsx", 'import page from "@/app/(portal)/claims/page";\nexport const x = page;\n', /components\/ may not import from app\//],
    ["sandbox/fixture.ts", 'import { getDb } from "../lib/db";\nexport const x = getDb;\n', /shares only lib\/fhir/],
    ["sandbox/fixture.ts", 'import { env } from "@/lib/env";\nexport const x = env;\n', /shares only lib\/fhir/],
    ["sandbox/fixture.ts", 'import { money } from "../lib/fhir/money";\nexport const x = money;\n', /shares only lib\/fhir/],
    ["lib/claims/fixture.ts", "export const port = process.env.PORT;\n", /Read configuration with env\(\)/],
    // No import past a module's entry (decision 041).
    ["lib/claims/fixture.ts", 'import { authorize } from "@/lib/auth/guards";\nexport const x = authorize;\n', /through its entry/],
    ["app/(portal)/fixture.tsx", 'import { getPatient } from "@/lib/patients/registry";\nexport const x = getPatient;\n', /through its entry/],
    ["components/claims/fixture.tsx", 'import { formatMoney } from "@/lib/money/format";\nexport const x = formatMoney;\n', /through its entry/],
    // The map of lib/ (decision 064): never a higher layer.
    ["lib/submissions/fixture.ts", 'import { listClaims } from "@/lib/claims";\nexport const x = listClaims;\n', /domain layer may not import a module of a higher layer/],
    ["lib/fhir/fixture.ts", 'import { getPatient } from "@/lib/patients";\nexport const x = getPatient;\n', /core layer may not import/],
    ["lib/patients/fixture.ts", 'import { submit } from "@/lib/submissions";\nexport const x = submit;\n', /platform layer may not import/],
    ["lib/claims/fixture.ts", 'import { handleListClaims } from "@/lib/claims-api";\nexport const x = handleListClaims;\n', /features layer may not import/],
    ["lib/time.ts", 'import { audit } from "@/lib/audit";\nexport const x = audit;\n', /core layer may not import/],
    // Owned tables (decisions 127, 128): only their owner reads them — by name or through `tables`.
    ["lib/claims/fixture.ts", 'import { submissions } from "@/lib/db";\nexport const x = submissions;\n', /belong to lib\/submissions/],
    ["app/(portal)/fixture.tsx", 'import { patients, submissionEvents } from "@/lib/db";\nexport const x = [patients, submissionEvents];\n', /belong to lib\/submissions/],
    ["lib/information-requests/fixture.ts", 'import { informationRequests } from "@/lib/db";\nexport const x = informationRequests;\n', /belong to lib\/submissions/],
    ["lib/claims/fixture.ts", 'import { coverages } from "@/lib/db";\nexport const x = coverages;\n', /coverages, offlineEligibilities belong to lib\/patients/],
    ["app/(portal)/fixture.tsx", 'import { inboxMessages } from "@/lib/db";\nexport const x = inboxMessages;\n', /belong to lib\/inbox/],
    ["lib/claims/fixture.ts", 'import { tables } from "@/lib/db";\nconst { remittances } = tables;\nexport const x = remittances;\n', /belong to lib\/payments/],
    ["lib/claims/fixture.ts", 'import { tables } from "@/lib/db";\nexport const x = tables.submissions;\n', /belong to lib\/submissions/],
    ["lib/claims/fixture.ts", 'import { tables } from "@/lib/db";\nexport type X = typeof tables.visits.$inferSelect;\n', /belong to lib\/visits/],
    // An owner is refused the other owners' tables.
    ["lib/patients/fixture.ts", 'import { submissions } from "@/lib/db";\nexport const x = submissions;\n', /belong to lib\/submissions/],
    ["lib/submissions/fixture.ts", 'import { coverages } from "@/lib/db";\nexport const x = coverages;\n', /belong to lib\/patients/],
  ])("%s: refuses %j", async (file, code, expected) => {
    expect((await problems(file, code)).join("\n")).toMatch(expected);
  });

  it.each([
    ["components/claims/fixture.tsx", 'import { formatMoney } from "@/lib/money";\nexport const x = formatMoney;\n'],
    ["app/(portal)/fixture.tsx", 'import { Button } from "@/components/ui/button";\nexport const x = Button;\n'],
    ["sandbox/fixture.ts", 'import { money } from "../lib/fhir";\nexport const x = money;\n'],
    ["lib/claims/fixture.ts", 'import { env } from "@/lib/env";\nexport const x = env().PORT;\n'],
    ["lib/claims/fixture.ts", 'import { authorize } from "@/lib/auth";\nexport const x = authorize;\n'],
    ["components/claims/fixture.tsx", 'import { copyClaimAction } from "@/lib/claims/browser";\nexport const x = copyClaimAction;\n'],
    ["lib/claims/fixture.ts", 'import { submitForm } from "@/lib/submissions";\nexport const x = submitForm;\n'],
    ["lib/pipeline/fixture.ts", 'import { reschedule } from "@/lib/submissions";\nexport const x = reschedule;\n'],
    ["lib/submissions/fixture.ts", 'import { submissions } from "@/lib/db";\nexport const x = submissions;\n'],
    ["lib/patients/fixture.ts", 'import { coverages, tables } from "@/lib/db";\nexport const x = [coverages, tables.offlineEligibilities];\n'],
    ["lib/payments/fixture.ts", 'import { tables } from "@/lib/db";\nconst { remittances } = tables;\nexport const x = remittances;\n'],
    // Tables with several writers have no owner yet (decision 128): anyone may read them.
    ["lib/claims/fixture.ts", 'import { patients, users } from "@/lib/db";\nexport const x = [patients, users];\n'],
    // Tests may reach inside a module.
    ["lib/claims/fixture.test.ts", 'import { getPatient } from "@/lib/patients/registry";\nexport const x = getPatient;\n'],
  ])("%s: allows %j", async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

describe("owned tables (decisions 127, 128)", () => {
  const root = path.resolve(__dirname, "..");
  type Entry = { owner: string; tables: string[]; stillReading: string[] };
  const entries = OWNED_TABLES as Entry[];

  /** Whether a file's text reads one of the tables as the lint sees it: a named import from @/lib/db, or through `tables`. */
  function readsOneOf(text: string, names: string[]): boolean {
    const name = `\\b(${names.join("|")})\\b`;
    const named = [...text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"@\/lib\/db"/g)].some((m) => new RegExp(name).test(m[1]!));
    const member = new RegExp(`\\btables\\.${name}`).test(text);
    const destructured = [...text.matchAll(/\{([^}]*)\}\s*=\s*tables\b/g)].some((m) => new RegExp(name).test(m[1]!));
    return named || member || destructured;
  }

  /** The entries a listed file is stale in: it no longer reads any of their tables (or is gone). */
  function staleIn(files: (file: string) => string | undefined, among: Entry[] = entries): string[] {
    return among.flatMap((entry) =>
      entry.stillReading.filter((file) => {
        const text = files(file);
        return text === undefined || !readsOneOf(text, entry.tables);
      }).map((file) => `${entry.owner}: ${file}`),
    );
  }
  const onDisk = (file: string) => {
    try {
      return readFileSync(path.join(root, file), "utf8");
    } catch {
      return undefined;
    }
  };

  it("lists as still reading only files that still read one of the entry's tables, for every owner (each list only shrinks)", () => {
    expect(staleIn(onDisk)).toEqual([]);
  });

  /*
   * The debt is 0 (decision 128's last amendment): no real file is listed. The checks of a listed
   * reader run on the same entries with a fixture listed by owners other than the first, the
   * lint built from them by ownedTableBlocks as eslint.config.mjs builds it from OWNED_TABLES.
   */
  const listedFile = "lib/claims/fixture.ts";
  const listing = (...owners: string[]): Entry[] => entries.map((e) => (owners.includes(e.owner) ? { ...e, stillReading: [...e.stillReading, listedFile] } : e));
  const use = (table: string) => `import { tables } from "@/lib/db";\nexport const x = tables.${table};\n`;

  it("finds a stale line in any entry, not only the first (checked on a file whose reads moved)", () => {
    const entry = entries.find((e) => e !== entries[0] && !listedFile.startsWith(`${e.owner}/`))!;
    const among = listing(entry.owner);
    expect(staleIn((file) => (file === listedFile ? use(entry.tables[0]!) : onDisk(file)), among)).toEqual([]);
    expect(staleIn((file) => (file === listedFile ? 'import { getDb } from "@/lib/db";\n' : onDisk(file)), among)).toEqual([`${entry.owner}: ${listedFile}`]);
    expect(staleIn((file) => (file === listedFile ? undefined : onDisk(file)), among)).toEqual([`${entry.owner}: ${listedFile}`]);
  });

  it("gives each table at most one owner, each owner one entry, and lists no file inside its own owner", () => {
    const tables = entries.flatMap((e) => e.tables);
    expect(tables.length).toBe(new Set(tables).size);
    expect(entries.length).toBe(new Set(entries.map((e) => e.owner)).size);
    expect(entries.flatMap((e) => e.stillReading.filter((f) => f.startsWith(`${e.owner}/`)))).toEqual([]);
  });

  it("lets a listed reader read only what it is listed for: still refused every other owner's tables", async () => {
    const [reader, second, third] = entries.filter((e) => e.owner !== "lib/submissions" && !listedFile.startsWith(`${e.owner}/`));
    const once = new ESLint({ cwd: path.resolve(__dirname, ".."), overrideConfig: ownedTableBlocks(listing(reader!.owner)) });
    expect((await problems(listedFile, use(reader!.tables[0]!))).join("\n")).toContain(`belong to ${reader!.owner}`);
    expect(await problems(listedFile, use(reader!.tables[0]!), once)).toEqual([]);
    expect((await problems(listedFile, use(second!.tables[0]!), once)).join("\n")).toContain(`belong to ${second!.owner}`);
    expect((await problems(listedFile, use("submissions"), once)).join("\n")).toContain("belong to lib/submissions");
    // A file listed by two owners may read both, and no third.
    const twice = new ESLint({ cwd: path.resolve(__dirname, ".."), overrideConfig: ownedTableBlocks(listing(reader!.owner, second!.owner)) });
    for (const e of [reader!, second!]) expect(await problems(listedFile, use(e.tables[0]!), twice)).toEqual([]);
    expect((await problems(listedFile, use(third!.tables[0]!), twice)).join("\n")).toContain(`belong to ${third!.owner}`);
  });
});

describe("the map of lib/", () => {
  it("places every lib folder in exactly one layer", () => {
    const root = path.resolve(__dirname);
    const folders = readdirSync(root).filter((name) => statSync(path.join(root, name)).isDirectory());
    const placed = LIB_MAP.flatMap((l: { modules: string[] }) => l.modules);
    expect(placed.length).toBe(new Set(placed).size);
    expect(folders.filter((f) => !placed.includes(f))).toEqual([]);
    // A module may be one file at lib's root (lib/env.ts, lib/time.ts, lib/handed-down.ts).
    const files = readdirSync(root).filter((name) => /^[a-z-]+\.ts$/.test(name) && !name.endsWith(".test.ts")).map((name) => name.slice(0, -3));
    expect(files.filter((f) => !placed.includes(f))).toEqual([]);
    expect(placed.filter((m: string) => !folders.includes(m) && !files.includes(m))).toEqual([]);
  });

  it("keeps test helpers in testing/ folders (one convention, decision 064)", () => {
    const stray: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name === "testing.ts" || name === "test-support.ts") stray.push(path.relative(path.resolve(__dirname, ".."), full));
      }
    };
    walk(path.resolve(__dirname));
    expect(stray).toEqual([]);
  });
});

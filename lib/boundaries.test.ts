import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { LIB_MAP, OWNED_TABLES } from "../eslint.config.mjs";
import { describe, expect, it } from "vitest";

/*
 * The boundaries are rules of `npm run lint` (eslint.config.mjs). This runs ESLint's own API on
 * small fixtures placed (virtually) in each layer: each deliberate violation must be reported, and
 * the allowed direction must not be.
 */
const eslint = new ESLint({ cwd: path.resolve(__dirname, "..") });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(__dirname, "..", file) });
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
    // Owned tables (decision 127): only their owner imports them.
    ["lib/claims/fixture.ts", 'import { submissions } from "@/lib/db";\nexport const x = submissions;\n', /belong to lib\/submissions/],
    ["app/(portal)/fixture.tsx", 'import { patients, submissionEvents } from "@/lib/db";\nexport const x = [patients, submissionEvents];\n', /belong to lib\/submissions/],
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
    ["lib/pipeline/fixture.ts", 'import { transition } from "@/lib/submissions";\nexport const x = transition;\n'],
    ["lib/submissions/fixture.ts", 'import { submissions } from "@/lib/db";\nexport const x = submissions;\n'],
    ["lib/claims/fixture.ts", 'import { patients } from "@/lib/db";\nexport const x = patients;\n'],
    // Tests may reach inside a module.
    ["lib/claims/fixture.test.ts", 'import { getPatient } from "@/lib/patients/registry";\nexport const x = getPatient;\n'],
  ])("%s: allows %j", async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

describe("owned tables (decision 127)", () => {
  it("lists as still reading only files that still import an owned table (the list only shrinks)", () => {
    const root = path.resolve(__dirname, "..");
    const imports = new RegExp(`import \\{[^}]*\\b(${OWNED_TABLES.tables.join("|")})\\b[^}]*\\} from "@/lib/db"`);
    const stale = OWNED_TABLES.stillReading.filter((file: string) => {
      try {
        return !imports.test(readFileSync(path.join(root, file), "utf8"));
      } catch {
        return true;
      }
    });
    expect(stale).toEqual([]);
  });
});

describe("the map of lib/", () => {
  it("places every lib folder in exactly one layer", () => {
    const root = path.resolve(__dirname);
    const folders = readdirSync(root).filter((name) => statSync(path.join(root, name)).isDirectory());
    const placed = LIB_MAP.flatMap((l: { modules: string[] }) => l.modules);
    expect(placed.length).toBe(new Set(placed).size);
    expect(folders.filter((f) => !placed.includes(f))).toEqual([]);
    expect(placed.filter((m: string) => !folders.includes(m) && !["env", "time"].includes(m))).toEqual([]);
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

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "./messages/en.json";
import ar from "./messages/ar.json";

/*
 * No protocol or specification jargon on a staff page (docs/decisions/122). The words a
 * clerk, a biller or a manager reads name the insurer, the exchange, the claim — never the wire
 * format, the protocol or the spec. Integrators' and administrators' pages (the exchange's
 * connection, machine access, code imports, the audit log) may name them: that is their subject.
 */
const JARGON: readonly RegExp[] = [/\bFHIR\b/, /\bREST\b/, /\(spec\)/i, /\bthe spec\b/i, /المواصفة/, /\bHL7\b/, /\bJSON\b/, /\bUUID\b/, /\bmTLS\b/i, /\bR4\b/, /\bBundle\b/, /\bOperationOutcome\b/, ...PLATFORM_WORDS()];

/*
 * "The platform" says nothing to a clerk (decision 122): the words name the exchange (it carries the
 * request, refuses a malformed one, is down) or the insurer (it decides, pays, asks for information).
 * Arabic: المنصة with its article (and للمنصة), never "منصة التبادل", which names the exchange.
 */
function PLATFORM_WORDS(): RegExp[] {
  return [/\bplatforms?\b/i, /(ال|لل)منصة/];
}

/** A source literal is words a page shows only when it is a phrase (a space outside `${…}`): "platform" alone is a key or a test id. */
function sourceTermApplies(term: RegExp, text: string): boolean {
  if (!PLATFORM_WORDS().some((p) => p.source === term.source)) return true;
  const words = text.replace(/\$\{[^}]*\}/g, "");
  return /\s/.test(words) && term.test(words);
}

/** Message namespaces of integrator and administrator pages. */
const INTEGRATOR_NAMESPACES = new Set(["platform", "settings", "apiAccess", "organizationKeys", "gatewayTokens", "terminology", "audit", "systemStatus", "users"]);

type Tree = { [key: string]: string | Tree };
function* leaves(tree: Tree, prefix = ""): Generator<[string, string]> {
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") yield [`${prefix}${key}`, value];
    else yield* leaves(value, `${prefix}${key}.`);
  }
}

export function jargonIn(messages: Tree): string[] {
  const found: string[] = [];
  for (const [key, text] of leaves(messages)) {
    if (INTEGRATOR_NAMESPACES.has(key.split(".")[0]!)) continue;
    for (const term of JARGON) if (term.test(text)) found.push(`${key}: ${term.source} in "${text}"`);
  }
  return found;
}

/** Staff pages' own source (pages and components), integrator and admin areas left out. */
const ROOT = path.resolve(__dirname, "../..");
const STAFF_SOURCES = ["app/(portal)", "app/(auth)", "components"];
const INTEGRATOR_PATHS = [/settings/, /api-access/, /organization-keys/, /gateway-tokens/, /terminology/, /audit/, /system-status/, /users/];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx$/.test(name) && !/\.test\./.test(name)) yield full;
  }
}

/** The text a page renders from its own source: JSX text and string literals, comments removed. */
export function renderedText(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const texts = [...code.matchAll(/>([^<>{}]+)</g)].map((m) => m[1]!.trim()).filter(Boolean);
  const literals = [...code.matchAll(/"([^"\n]*)"|'([^'\n]*)'|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
  return [...texts, ...literals.filter((l) => !l.startsWith("@/") && !l.startsWith("./") && !l.startsWith("../"))];
}

describe("no protocol or spec jargon on staff pages", () => {
  it("finds jargon when it is there (the check bites)", () => {
    expect(jargonIn({ claims: { raw: "Raw FHIR (for support)" }, careSetting: { cpt: "CPT (spec)" } })).toHaveLength(2);
    expect(jargonIn({ platform: { baseUrl: "FHIR base URL" } })).toEqual([]);
    expect(renderedText(`// FHIR in a comment\n<p>Sent over REST</p>`).join(" ")).toMatch(/REST/);
    expect(renderedText(`/* FHIR */ const a = 1;`).join(" ")).not.toMatch(/FHIR/);
  });

  it("finds \"the platform\" in staff words, not in integrators' pages nor in keys (the check bites)", () => {
    expect(jargonIn({ eligibility: { busy: "The platform is busy." }, claims: { col: "Platform id" }, statusCheck: { ar: "لم تُجب المنصة." }, cancellation: { ar: "تعذّر الوصول للمنصة" } })).toHaveLength(4);
    expect(jargonIn({ eligibility: { busy: "The exchange is busy.", ar: "منصة التبادل مشغولة." } })).toEqual([]);
    expect(jargonIn({ platform: { title: "Platform connection" }, systemStatus: { ar: "المنصة" } })).toEqual([]);
    const platform = JARGON.find((t) => t.test("platform"))!;
    expect(sourceTermApplies(platform, "The platform refused it")).toBe(true);
    expect(sourceTermApplies(platform, "errors.platform")).toBe(false);
    expect(sourceTermApplies(platform, "status-check-platform")).toBe(false);
    expect(sourceTermApplies(platform, 'platform:${res.code ?? ""}')).toBe(false);
    expect(sourceTermApplies(platform, "Checking with the platform…")).toBe(true);
  });

  it("English and Arabic messages outside integrator pages carry none", () => {
    expect(jargonIn(en as Tree)).toEqual([]);
    expect(jargonIn(ar as Tree)).toEqual([]);
  });

  it("server-rendered words of staff pages carry none", () => {
    const found: string[] = [];
    for (const dir of STAFF_SOURCES) {
      for (const file of sourceFiles(path.join(ROOT, dir))) {
        const rel = path.relative(ROOT, file);
        if (INTEGRATOR_PATHS.some((p) => p.test(rel))) continue;
        for (const text of renderedText(readFileSync(file, "utf8"))) for (const term of JARGON) if (term.test(text) && sourceTermApplies(term, text)) found.push(`${rel}: ${term.source} in "${text.slice(0, 80)}"`);
      }
    }
    expect(found).toEqual([]);
  });
});

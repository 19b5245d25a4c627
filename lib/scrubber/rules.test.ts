import { describe, expect, it } from "vitest";
import { nphies } from "@/lib/fhir";
import { BASE_RULES, reasonCodesCaught, rulesFor, scrubFacts } from "./engine";
import type { ScrubFacts } from "./types";

/*
 * Every rule of the rule files with a claim that passes it and one that fails it
 * (docs/decisions/090). A rule added to rules/base.json without a case here fails the first test.
 */

const clean = (): ScrubFacts => ({
  use: "claim",
  insurerId: "payer-rimal",
  today: "2026-06-10",
  supportingInfo: [],
  diagnoses: ["M54.5"],
  patient: { birthDate: "1985-03-14", gender: "female" },
  eligibility: { inforce: true, checkedAt: "2026-06-01T08:00:00.000Z", servicedDate: "2026-06-01" },
  items: [
    { sequence: 1, code: "99213", system: "cpt", servicedDate: "2026-06-01", quantity: 1, unitPriceMinor: 25_000, contract: { priceMinor: 25_000, authorizationRequired: false } },
    { sequence: 2, code: "72148", system: "cpt", servicedDate: "2026-06-01", quantity: 1, unitPriceMinor: 200_000, contract: { priceMinor: 200_000, authorizationRequired: true } },
  ],
  authorizations: [{ preAuthRef: "PA-1", periodStart: "2026-05-01", periodEnd: "2026-07-30", lines: [{ code: "72148", approved: 1, used: 0 }] }],
  preAuthRefs: ["PA-1"],
  messageBytes: 4_000,
  messageLimitBytes: 10 * 1024 * 1024,
});

/** Per rule: how to break the clean claim so that exactly this rule fires. */
const FAILING: Record<string, (f: ScrubFacts) => ScrubFacts> = {
  "coverage-not-in-force": (f) => ({ ...f, eligibility: { ...f.eligibility!, inforce: false } }),
  "service-excluded": (f) => ({ ...f, items: [f.items[0]!, { ...f.items[1]!, code: "15823", excluded: true }], authorizations: [{ ...f.authorizations[0]!, lines: [{ code: "15823", approved: 1, used: 0 }] }] }),
  "eligibility-unconfirmed": (f) => ({ ...f, eligibilityUnconfirmed: "timeout" }),
  "authorization-missing": (f) => ({ ...f, authorizations: [], preAuthRefs: [] }),
  "authorization-expired": (f) => ({ ...f, authorizations: [{ ...f.authorizations[0]!, periodEnd: "2026-05-20" }] }),
  "authorization-other-service": (f) => ({ ...f, authorizations: [{ ...f.authorizations[0]!, lines: [{ code: "70553", approved: 1, used: 0 }] }] }),
  "authorization-used-up": (f) => ({ ...f, authorizations: [{ ...f.authorizations[0]!, lines: [{ code: "72148", approved: 1, used: 1 }] }] }),
  "service-age-gender": (f) => ({ ...f, patient: { birthDate: "1979-11-02", gender: "male" }, items: [{ ...f.items[0]!, code: "59400", contract: { priceMinor: 25_000, authorizationRequired: false } }] }),
  "diagnosis-age": (f) => ({ ...f, diagnoses: ["Z34.9"], patient: { birthDate: "2020-01-01", gender: "female" } }),
  "diagnosis-gender": (f) => ({ ...f, diagnoses: ["N97.9"], patient: { birthDate: "1985-03-14", gender: "male" } }),
  "duplicate-service": (f) => ({ ...f, items: [{ ...f.items[0]!, alreadyClaimed: true }, f.items[1]!] }),
  "contract-price-differs": (f) => ({ ...f, items: [{ ...f.items[0]!, unitPriceMinor: 27_000 }, f.items[1]!] }),
  "contract-price-missing": (f) => ({ ...f, items: [{ ...f.items[0]!, contract: undefined }, f.items[1]!] }),
  "supporting-info-missing": (f) => ({ ...f, claimType: "professional", subType: "op", supportingInfo: [] }),
  "emergency-vital-signs": (f) => ({ ...f, claimType: "professional", subType: "emr", supportingInfo: ["chief-complaint"] }),
  "filing-window": (f) => ({ ...f, today: "2027-07-01" }),
  "message-too-large": (f) => ({ ...f, messageBytes: 11 * 1024 * 1024 }),
  // Offline approvals (docs/decisions/111): an offline eligibility's date without its reference; an offline authorization dated after the service.
  "offline-reference-missing": (f) => ({ ...f, offline: { eligibility: { reference: "", date: f.items[0]!.servicedDate } } }),
  "offline-after-service": (f) => ({ ...f, offline: { authorization: { date: "2027-01-01" } } }),
};

describe("scrubber rules (docs/decisions/090)", () => {
  it("has a passing and a failing claim for every rule of the rule file", () => {
    expect(Object.keys(FAILING).sort()).toEqual(BASE_RULES.map((r) => r.id).sort());
  });

  it("finds nothing on the clean claim", () => {
    expect(scrubFacts(clean()).findings).toEqual([]);
  });

  for (const rule of BASE_RULES) {
    it(`${rule.id}: the failing claim is found (${rule.code}), the clean one passes`, () => {
      const passing = scrubFacts(clean()).findings.filter((f) => f.rule === rule.id);
      expect(passing).toEqual([]);
      const found = scrubFacts(FAILING[rule.id]!(clean())).findings;
      const mine = found.filter((f) => f.rule === rule.id);
      expect(mine.length, JSON.stringify(found.map((f) => f.rule))).toBeGreaterThan(0);
      // Only this rule fires: each case breaks exactly one thing.
      expect([...new Set(found.map((f) => f.rule))]).toEqual([rule.id]);
      for (const f of mine) {
        expect(f.family).toBe(nphies.rejectionFamilyOf(rule.code));
        expect(f.code).toBe(rule.code);
        expect(f.severity).toBe(rule.severity);
        expect(f.element).not.toMatch(/\{\w+\}/);
        for (const words of [f.message, f.fix]) {
          expect(words.en).not.toMatch(/\{\w+\}/);
          expect(words.ar).not.toMatch(/\{\w+\}/);
          expect(words.ar).toMatch(/[\u0600-\u06FF]/);
        }
      }
    });
  }

  it("the clinical table's service rows name their list: an exchange code fits by its own list, a CPT row does not match it", () => {
    const man = { birthDate: "1979-11-02", gender: "male" };
    const delivery = (system: string) => scrubFacts({ ...clean(), patient: man, items: [{ ...clean().items[0]!, system, code: "PKG-0501" }] }).findings.map((f) => f.rule);
    // The exchange's normal delivery package is for a woman of 10 to 60.
    expect(delivery("services")).toEqual(["service-age-gender"]);
    // The same code in another list is not that service.
    expect(delivery("procedures")).toEqual([]);
    // CPT's obstetric row is CPT's: 59400 of another list does not match it.
    const obstetric = (system: string) => scrubFacts({ ...clean(), patient: man, items: [{ ...clean().items[0]!, system, code: "59400" }] }).findings.map((f) => f.rule);
    expect(obstetric("cpt")).toEqual(["service-age-gender"]);
    expect(obstetric("services")).toEqual([]);
  });

  it("names the line and its element, and knows the code's words in the shared module", () => {
    const f = scrubFacts(FAILING["contract-price-differs"]!(clean())).findings[0]!;
    expect(f).toMatchObject({ sequence: 1, element: "Claim.item[1].unitPrice", family: "BE" });
    expect(f.message.en).toBe("Line 1 (99213) is priced 270.00; the contract of 2026-06-01 says 250.00.");
    expect(nphies.SCRUBBER_REASONS[f.code]).toBeDefined();
    for (const r of BASE_RULES) expect(nphies.SCRUBBER_REASONS[r.code] ?? nphies.REJECTION_REASONS[r.code], r.code).toBeDefined();
  });

  it("applies a payer's overrides: Wadi files within 90 days and a price above the contract blocks", () => {
    const wadi = (f: ScrubFacts): ScrubFacts => ({ ...f, insurerId: "payer-wadi" });
    expect(rulesFor("payer-wadi").name).toBe("base+payer-wadi");
    const late = wadi({ ...clean(), today: "2026-09-15" });
    expect(scrubFacts(late).findings.map((f) => f.rule)).toEqual(["filing-window", "filing-window"]);
    expect(scrubFacts({ ...clean(), today: "2026-09-15" }).findings).toEqual([]);
    const priced = scrubFacts(wadi(FAILING["contract-price-differs"]!(clean())));
    expect(priced.errors.map((f) => f.rule)).toEqual(["contract-price-differs"]);
    expect(scrubFacts(FAILING["contract-price-differs"]!(clean())).warnings.map((f) => f.rule)).toEqual(["contract-price-differs"]);
  });

  it("service-excluded: a line whose benefit category the last eligibility answer says is not covered", () => {
    const f = clean();
    const withCategory = { ...f, items: [{ ...f.items[0]!, category: "3" }, f.items[1]!] };
    expect(scrubFacts(withCategory).findings).toEqual([]);
    const found = scrubFacts({ ...withCategory, eligibility: { ...f.eligibility!, excludedCategories: ["3"] } });
    expect(found.errors.map((x) => [x.rule, x.code, x.family, x.sequence])).toEqual([["service-excluded", "CV-P-2", "CV", 1]]);
    expect(found.errors[0]!.message.en).toBe("Line 1 (99213) is not covered: the eligibility answer of 2026-06-01 says benefit category 3 is not covered.");
    expect(found.errors[0]!.message.ar).toContain("فئة المنافع 3");
  });

  it("service-excluded counts the sandbox's ar001 as caught", () => {
    expect(reasonCodesCaught().get("ar001")).toEqual(["service-excluded"]);
    // A notice only shows: the unconfirmed eligibility is no catch.
    expect(reasonCodesCaught().has("CV-P-3")).toBe(false);
  });

  it("supporting-info-missing follows the care setting: an inpatient prior authorization needs its estimated stay (the exchange's BV-00802), a claim of the same stay does not", () => {
    const inpatient = { ...clean(), claimType: "institutional", subType: "ip", supportingInfo: ["chief-complaint"] };
    const auth = scrubFacts({ ...inpatient, use: "preauthorization" as const, items: [], authorizations: [] });
    expect(auth.errors.map((f) => [f.rule, f.code, f.message.en])).toEqual([["supporting-info-missing", "SE-P-1", "This institutional prior authorization needs estimated-Length-of-Stay."]]);
    expect(scrubFacts({ ...inpatient, use: "preauthorization" as const, items: [], authorizations: [], supportingInfo: ["chief-complaint", "estimated-Length-of-Stay"] }).errors).toEqual([]);
    expect(scrubFacts(inpatient).errors.filter((f) => f.rule === "supporting-info-missing")).toEqual([]);
  });

  it("a preauthorization is not checked against authorizations, prices or duplicates", () => {
    const auth = { ...FAILING["authorization-missing"]!(clean()), use: "preauthorization" as const };
    expect(scrubFacts(FAILING["contract-price-differs"]!(auth)).findings).toEqual([]);
  });

  it("draws the lines of one claim on the same authorization in order", () => {
    const f = clean();
    const two = { ...f, items: [f.items[1]!, { ...f.items[1]!, sequence: 3 }], authorizations: [{ ...f.authorizations[0]!, lines: [{ code: "72148", approved: 1, used: 0 }] }] };
    expect(scrubFacts(two).findings.map((x) => [x.rule, x.sequence])).toEqual([["authorization-used-up", 3]]);
  });
});

describe("offline approvals in the scrubber (docs/decisions/111)", () => {
  it("a claim relying on an offline eligibility is not 'eligibility unconfirmed'; one relying on an offline authorization is not 'authorization missing'", () => {
    const unconfirmed = FAILING["eligibility-unconfirmed"]!(clean());
    expect(scrubFacts({ ...unconfirmed, offline: { eligibility: { reference: "EL-1", date: unconfirmed.items[0]!.servicedDate } } }).findings).toEqual([]);
    const missing = FAILING["authorization-missing"]!(clean());
    expect(scrubFacts(missing).findings.map((f) => f.rule)).toContain("authorization-missing");
    expect(scrubFacts({ ...missing, preAuthRefs: ["OFF-PA-1"], offline: { authorization: { date: missing.items[0]!.servicedDate } } }).findings).toEqual([]);
  });
});

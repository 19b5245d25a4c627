import base from "./rules/base.json";
import wadi from "./rules/payers/payer-wadi.json";
import { nphies } from "@/lib/fhir";
import { yieldToEventLoop } from "@/lib/time";
import { CHECKS } from "./checks";
import type { RuleDef, ScrubFacts, ScrubFinding, ScrubResult, Words } from "./types";

/**
 * The rule engine (docs/decisions/090): the base rule set and a payer's overrides (data files in
 * lib/scrubber/rules), each rule's check run on the facts, each hit worded in both languages.
 * Pure — the facts are gathered beforehand (facts.ts).
 */

interface PayerOverrides {
  name: string;
  payer: string;
  overrides: Record<string, Partial<Pick<RuleDef, "severity" | "params" | "enabled">>>;
}

export const BASE_RULES: readonly RuleDef[] = (base.rules as RuleDef[]).map((r) => ({ ...r, enabled: r.enabled ?? true }));
/** Per-payer rule files, by payer id (one file each: rules/payers/<payer id>.json). */
export const PAYER_OVERRIDES: ReadonlyMap<string, PayerOverrides> = new Map([wadi as PayerOverrides].map((o) => [o.payer, o]));

/** The rules in force for a payer: the base set with that payer's overrides applied. */
export function rulesFor(insurerId: string | undefined): { name: string; rules: RuleDef[] } {
  const payer = insurerId ? PAYER_OVERRIDES.get(insurerId) : undefined;
  if (!payer) return { name: "base", rules: [...BASE_RULES] };
  return {
    name: `base+${payer.name}`,
    rules: BASE_RULES.map((r) => {
      const o = payer.overrides[r.id];
      return o ? { ...r, ...o, params: { ...r.params, ...o.params } } : r;
    }),
  };
}

/**
 * The reason codes a payer's rule set would have caught before sending (the denial views' "share the
 * scrubber would have caught"): per code, the rules that find its defect — every enabled rule that
 * stops or asks (error, warning; a notice only shows), by its own code and the payers' codes it
 * `catches`. Without a payer: the base set.
 */
export function reasonCodesCaught(insurerId?: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const rule of rulesFor(insurerId).rules) {
    if (rule.enabled === false || rule.severity === "notice") continue;
    for (const code of [rule.code, ...(rule.catches ?? [])]) out.set(code, [...(out.get(code) ?? []), rule.id]);
  }
  return out;
}

function fill(template: string, values: Record<string, string | number | Words>, lang: "en" | "ar"): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const v = values[key];
    if (v === undefined) return whole;
    return typeof v === "object" ? v[lang] : String(v);
  });
}

/** Runs every enabled rule for the claim's use; findings in rule order, line by line. */
export function scrubFacts(facts: ScrubFacts, rules: { name: string; rules: RuleDef[] } = rulesFor(facts.insurerId)): ScrubResult {
  const findings: ScrubFinding[] = [];
  for (const rule of rules.rules) runRule(rule, facts, findings);
  return resultOf(findings, rules.name);
}

/**
 * scrubFacts for the submit path: the same rules in the same order, letting the event loop run
 * between two rules (each rule is one linear pass over the lines), so a claim of the most lines
 * allowed never holds other requests for the whole rule set (docs/decisions/093).
 */
export async function scrubFactsYielding(facts: ScrubFacts, rules: { name: string; rules: RuleDef[] } = rulesFor(facts.insurerId)): Promise<ScrubResult> {
  const findings: ScrubFinding[] = [];
  for (const rule of rules.rules) {
    runRule(rule, facts, findings);
    await yieldToEventLoop();
  }
  return resultOf(findings, rules.name);
}

function resultOf(findings: ScrubFinding[], ruleSet: string): ScrubResult {
  return { findings, errors: findings.filter((f) => f.severity === "error"), warnings: findings.filter((f) => f.severity === "warning"), ruleSet };
}

function runRule(rule: RuleDef, facts: ScrubFacts, findings: ScrubFinding[]): void {
  if (rule.enabled === false || !rule.uses.includes(facts.use)) return;
  const check = CHECKS[rule.check];
  if (!check) throw new Error(`scrubber rule ${rule.id}: no check ${rule.check}`);
  const family = nphies.rejectionFamilyOf(rule.code);
  if (!family) throw new Error(`scrubber rule ${rule.id}: ${rule.code} has no rejection family`);
  for (const hit of check(facts, rule.params ?? {})) {
    findings.push({
      rule: rule.id,
      severity: rule.severity,
      family,
      code: rule.code,
      element: fill(rule.element, hit.values, "en"),
      message: { en: fill(rule.message.en, hit.values, "en"), ar: fill(rule.message.ar, hit.values, "ar") },
      fix: { en: fill(rule.fix.en, hit.values, "en"), ar: fill(rule.fix.ar, hit.values, "ar") },
      ...(hit.sequence !== undefined ? { sequence: hit.sequence } : {}),
    });
  }
}

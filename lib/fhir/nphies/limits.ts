/**
 * THE size limits of a claim or authorization request and of any JSON body (docs/decisions/093).
 * The exchange's guide v2.7 gives no maximum count for Claim.item, Claim.diagnosis or
 * Claim.supportingInfo (cardinality 1..* / 0..*, "any number of instances", §3.2 Table 2); it caps
 * lengths (§3.3) and an attachment's data (base64Binary 10 MB, our whole-message limit). These
 * counts are therefore ours, set well above what a clinic's claim carries (a long inpatient stay's
 * itemised pharmacy fits) and low enough that the heaviest claim allowed is checked and sent without
 * holding the server (npm run bench:fairness). Every place that takes a claim uses them: the machine
 * APIs before any work (lib/api's body reader), the claim schema (lib/fhir/schemas.ts), the staff
 * forms and the sandbox.
 */
export const CLAIM_LIMITS = {
  /** Claim.item: lines per claim or authorization request. */
  lines: 1000,
  /** Claim.diagnosis. */
  diagnoses: 100,
  /** Claim.supportingInfo (attachments included). */
  supportingInfo: 200,
  /** Claim.supportingInfo[].valueAttachment: attached documents per claim. */
  attachments: 30,
  /** Nesting of any JSON body (objects and arrays inside each other); a deep FHIR Bundle is ~12. */
  jsonDepth: 32,
} as const;

export type ClaimLimitName = keyof typeof CLAIM_LIMITS;

/**
 * The staff claim and authorization form's caps: rows a person types, so tighter than
 * CLAIM_LIMITS (never above them: limits.test.ts); its field errors quote these numbers.
 */
export const FORM_CLAIM_LIMITS = {
  lines: 50,
  /** Diagnoses, and procedures, each. */
  codes: 12,
} as const;

/** What a limit counts, in words (English, Arabic), for messages and field errors. */
export const CLAIM_LIMIT_WORDS: Record<ClaimLimitName, { en: string; ar: string }> = {
  lines: { en: "lines", ar: "بنود" },
  diagnoses: { en: "diagnoses", ar: "تشخيصات" },
  supportingInfo: { en: "supporting information entries", ar: "معلومات داعمة" },
  attachments: { en: "attachments", ar: "مرفقات" },
  jsonDepth: { en: "levels of nesting", ar: "مستويات تداخل" },
};

export interface LimitProblem {
  limit: ClaimLimitName;
  max: number;
  /** How many the body has (for jsonDepth: at least this deep). */
  actual: number;
  /** Where: `item`, `data.claim.diagnosis`, `entry[1].resource.item` … */
  path: string;
  /** English sentence naming the limit. */
  message: string;
}

function problem(limit: ClaimLimitName, actual: number, path: string): LimitProblem {
  const max = CLAIM_LIMITS[limit];
  const what = CLAIM_LIMIT_WORDS[limit].en;
  const message =
    limit === "jsonDepth"
      ? `The body is nested more than ${max} levels deep (at ${path || "(body)"}); the limit is ${max}.`
      : `${path}: ${actual} ${what}; a claim may have at most ${max} ${what} (limit "${limit}").`;
  return { limit, max, actual, path, message };
}

const arrayLength = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** The count limits of one Claim (FHIR shape): the first one broken, or undefined. */
export function claimCountProblem(claim: Record<string, unknown>, at = ""): LimitProblem | undefined {
  const p = (key: string) => (at ? `${at}.${key}` : key);
  const lines = arrayLength(claim.item);
  if (lines > CLAIM_LIMITS.lines) return problem("lines", lines, p("item"));
  const diagnoses = arrayLength(claim.diagnosis);
  if (diagnoses > CLAIM_LIMITS.diagnoses) return problem("diagnoses", diagnoses, p("diagnosis"));
  const info = Array.isArray(claim.supportingInfo) ? (claim.supportingInfo as unknown[]) : [];
  if (info.length > CLAIM_LIMITS.supportingInfo) return problem("supportingInfo", info.length, p("supportingInfo"));
  const attachments = info.filter((s) => typeof s === "object" && s !== null && "valueAttachment" in s).length;
  if (attachments > CLAIM_LIMITS.attachments) return problem("attachments", attachments, p("supportingInfo"));
  return undefined;
}

/**
 * One pass over a parsed JSON body, without recursion (a hostile nesting cannot overflow the
 * stack): nesting deeper than CLAIM_LIMITS.jsonDepth, and the count limits of every Claim in it —
 * the body itself, a Bundle entry's resource, or a `claim` member (the gateway's `data.claim`).
 * Linear in the body's size; stops at the first problem.
 */
export function bodyLimitProblem(body: unknown): LimitProblem | undefined {
  const stack: { value: unknown; path: string; depth: number; key: string }[] = [{ value: body, path: "", depth: 1, key: "" }];
  while (stack.length > 0) {
    const { value, path, depth, key } = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth > CLAIM_LIMITS.jsonDepth) return problem("jsonDepth", depth, path);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child = value[i] as unknown;
        if (typeof child === "object" && child !== null) stack.push({ value: child, path: `${path}[${i}]`, depth: depth + 1, key: "" });
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    if (record.resourceType === "Claim" || key === "claim") {
      const found = claimCountProblem(record, path);
      if (found) return found;
    }
    const keys = Object.keys(record);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      const child = record[k];
      if (typeof child === "object" && child !== null) stack.push({ value: child, path: path ? `${path}.${k}` : k, depth: depth + 1, key: k });
    }
  }
  return undefined;
}

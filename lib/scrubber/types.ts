import type { nphies } from "@/lib/fhir";

/** What a finding does to sending (docs/decisions/090): error blocks, warning asks "Send anyway", notice only shows. */
export type Severity = "error" | "warning" | "notice";
export type Words = { en: string; ar: string };

/** Everything the checks look at, gathered once per claim (lib/scrubber/facts.ts) — checks never read the database. */
export interface ScrubFacts {
  use: "claim" | "preauthorization";
  insurerId?: string;
  /** Today (YYYY-MM-DD), for the filing window. */
  today: string;
  /** The exchange care setting and subtype when the claim names them (`institutional` … / `op`, `emr` …). */
  claimType?: string;
  subType?: string;
  /** Supporting-information categories the claim carries. */
  supportingInfo: string[];
  diagnoses: string[];
  patient?: { birthDate: string; gender: string };
  /**
   * The last eligibility answer for this patient and payer; `excludedCategories`: the benefit
   * categories it says the plan does not cover.
   */
  eligibility?: { inforce: boolean | null; checkedAt: string; servicedDate: string; excludedCategories?: string[] };
  /**
   * A fresh eligibility check was due before this submit and could not be made (the platform was
   * out of reach, docs/decisions/090): the reason, for the notice.
   */
  eligibilityUnconfirmed?: string;
  items: ScrubItem[];
  /** Approved authorizations the claim references (by preAuthRef), with what earlier claims used of them. */
  authorizations: AuthorizationFact[];
  /** Whether the claim references any preAuthRef at all. */
  preAuthRefs: string[];
  /**
   * What the insurer gave offline that the claim relies on (docs/decisions/111, guide Table 10):
   * the eligibility's reference and date, the authorization's date (its reference is a preAuthRef).
   * A part is present when its extension is; its values may be empty ("").
   */
  offline?: { eligibility?: { reference: string; date: string }; authorization?: { date: string } };
  /** Filing window of the payer (days), when the insurer's settings give one. */
  filingDays?: number;
  /** Size of the message as it would be sent, in bytes, and the exchange's limit. */
  messageBytes: number;
  messageLimitBytes: number;
}

export interface ScrubItem {
  sequence: number;
  code: string;
  /** The price-list system key (`cpt`, `services` …) or '' when unknown. */
  system: string;
  servicedDate: string;
  quantity: number;
  unitPriceMinor: number;
  /** The contract's price of the service date, when the payer's contract has one. */
  contract?: { priceMinor: number; authorizationRequired: boolean };
  /** Another claim of this patient already has this code on this day. */
  alreadyClaimed?: boolean;
  /** Every plan excludes the service (lib/fhir EXCLUDED_SERVICES, the list the sandbox denies by). */
  excluded?: boolean;
  /** The benefit category the service is paid from, when the shared terminology knows it. */
  category?: string;
}

export interface AuthorizationFact {
  preAuthRef: string;
  periodStart?: string;
  periodEnd?: string;
  /** Approved quantity per code, and what other claims already used. */
  lines: { code: string; approved: number; used: number }[];
}

/** A rule as the data file says it. */
export interface RuleDef {
  id: string;
  check: string;
  uses: ("claim" | "preauthorization")[];
  severity: Severity;
  code: string;
  /** Further reason codes payers give for the defect this rule finds (the sandbox's `preauth-required` …). */
  catches?: string[];
  element: string;
  message: Words;
  fix: Words;
  params?: Record<string, number | string | boolean>;
  enabled?: boolean;
}

/** One finding: the rule, its family and code, the element it names, the words and the fix (placeholders filled). */
export interface ScrubFinding {
  rule: string;
  severity: Severity;
  family: nphies.RejectionFamily;
  code: string;
  element: string;
  message: Words;
  fix: Words;
  /** The claim line it concerns, when it concerns one. */
  sequence?: number;
}

export interface ScrubResult {
  findings: ScrubFinding[];
  errors: ScrubFinding[];
  warnings: ScrubFinding[];
  /** The rule set that ran: `base` or `base+payer-<id>`. */
  ruleSet: string;
}

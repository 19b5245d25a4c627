import { ADJUDICATION_REASONS, nphies, type AdjudicationReasonCode } from "@/lib/fhir";

/**
 * A denied or reduced line's reason, classified (docs/decisions/076): the exchange's family (AD,
 * CV, MN, SE, BE) and words in both languages. The exchange's codes classify by their prefix
 * (`MN-1-1` → MN) and take their words from its code system (nphies.REJECTION_REASONS); the
 * reasons the readers and the sandbox already use (HL7 ar001/ar002, the sandbox's own) are mapped
 * into a family here; any other code (a payer's own) is kept and shown as given, family unknown.
 */

export type Family = nphies.RejectionFamily;
export const FAMILIES = Object.keys(nphies.REJECTION_FAMILIES) as Family[];

/**
 * The families of the reasons that are not the exchange's own codes. Why each:
 * - ar001 "not covered by the plan", ar002 "plan limit reached", coverage-inactive: what the
 *   member's policy pays for — coverage (CV).
 * - price-list "reduced to the price list": the line was billed above the contracted price — a
 *   billing error (BE).
 * - preauth-required: the approval the payer asks for was not obtained or not referenced — an
 *   administrative failure of the provider (AD), like the exchange's authorization codes AD-2-x.
 * - quantity-limit, package-included (the sandbox's quantity / days-supply limits and packages,
 *   docs/decisions/071): the line billed more than the plan's rules allow — billing (BE).
 */
export const PORTAL_REASON_FAMILIES: Readonly<Record<AdjudicationReasonCode, Family>> = {
  ar001: "CV",
  ar002: "CV",
  "coverage-inactive": "CV",
  "price-list": "BE",
  "preauth-required": "AD",
  "quantity-limit": "BE",
  "package-included": "BE",
};

/**
 * Families whose rejections the clinic can usually fix itself and resubmit: data and coding (AD),
 * billing (BE), missing evidence (SE). Coverage (CV) and medical necessity (MN) are the payer's
 * judgement; they are won back by appeal, if at all.
 */
export const FIXABLE_FAMILIES: readonly Family[] = ["AD", "BE", "SE"];

export interface ReasonClass {
  /** The code as given ('' when the line came without a reason). */
  code: string;
  family?: Family;
  /** Words in both languages, when the portal has them for this code. */
  words?: { en: string; ar: string };
  fixable: boolean;
}

const has = <T extends object>(table: T, key: string): key is Extract<keyof T, string> => Object.prototype.hasOwnProperty.call(table, key);

export function classifyReason(code: string | undefined | null): ReasonClass {
  const given = (code ?? "").trim();
  let family: Family | undefined;
  let words: { en: string; ar: string } | undefined;
  if (has(PORTAL_REASON_FAMILIES, given)) {
    family = PORTAL_REASON_FAMILIES[given];
    words = ADJUDICATION_REASONS[given];
  } else if (given) {
    family = nphies.rejectionFamilyOf(given);
    const upper = given.toUpperCase();
    if (has(nphies.REJECTION_REASONS, upper)) words = nphies.REJECTION_REASONS[upper];
  }
  return { code: given, ...(family ? { family } : {}), ...(words ? { words: { en: words.en, ar: words.ar } } : {}), fixable: family !== undefined && FIXABLE_FAMILIES.includes(family) };
}

const lang = (locale: string) => (locale === "ar" ? "ar" : "en");

/** A family's name in the page's language ('' → the unclassified label the caller gives). */
export function familyName(family: string, locale: string): string | undefined {
  return has(nphies.REJECTION_FAMILIES, family) ? nphies.REJECTION_FAMILIES[family][lang(locale)] : undefined;
}

/** A reason in the page's language: its words when known, else the code as given. */
export function reasonLabel(code: string, locale: string): { text: string; known: boolean } {
  const c = classifyReason(code);
  return c.words ? { text: c.words[lang(locale)], known: true } : { text: c.code, known: false };
}

/** One line for a table or list: the words with the code beside, or the code as given when we have no words. */
export function reasonWithCode(code: string, locale: string): string {
  const l = reasonLabel(code, locale);
  return l.known ? `${l.text} (${code})` : code;
}

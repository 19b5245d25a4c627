import {
  ADJUDICATION_REASONS,
  CODE_SYSTEMS,
  NATIONAL_EXCHANGE,
  SANDBOX_ADJUDICATION_REASON_SYSTEM,
  readDisposition,
  readNote,
  type AdjudicationOutcome,
  type AdjudicationReasonCode,
  type BilingualDisplay,
  type DispositionFacts,
  type DispositionUse,
  type FixedDisposition,
  type NoteFacts,
} from "@/lib/fhir/browser";

/**
 * The ONE table of the platform's words — adjudication reasons (by code), dispositions and process
 * notes (by the fixed texts of lib/fhir/platform-texts.ts) — in the page's language. Every screen
 * that shows what the platform said about a decision takes its words from here; no screen keeps a
 * table of its own (lib/i18n/platform-words.test.ts checks).
 *
 * The answer is always: `words` in the page's language; `platformText`, the platform's own text,
 * when it says something else (show it as a secondary line, `dir="auto"`, muted); `code`, when the
 * code is one the portal has no words for (show it beside the platform's text — nothing is dropped).
 */
export interface PlatformWords {
  words: string;
  platformText?: string;
  code?: string;
  known: boolean;
}

type Lang = "en" | "ar";
const lang = (locale: string): Lang => (locale === "ar" ? "ar" : "en");

/** Systems whose reason codes the portal has words for (HL7's ar001/ar002, the sandbox's own, the national exchange's). */
const REASON_SYSTEMS = new Set<string | undefined>([undefined, CODE_SYSTEMS.adjudicationReason, SANDBOX_ADJUDICATION_REASON_SYSTEM, NATIONAL_EXCHANGE.adjudicationReasonSystem]);

function isReasonCode(code: string | undefined): code is AdjudicationReasonCode {
  return code !== undefined && Object.prototype.hasOwnProperty.call(ADJUDICATION_REASONS, code);
}

function answer(words: string, platformText: string | undefined): PlatformWords {
  const differs = platformText !== undefined && platformText.trim() !== "" && platformText.trim() !== words;
  return { words, known: true, ...(differs ? { platformText: platformText.trim() } : {}) };
}

function unknown(platformText: string | undefined, code?: string): PlatformWords {
  const text = platformText?.trim();
  if (text) return { words: text, known: false, ...(code && code !== text ? { code } : {}) };
  return { words: code ?? "—", known: false };
}

/** An adjudication reason (`ClaimResponse.item.adjudication.reason`). */
export function reasonWords(reason: { system?: string; code?: string; display?: string; text?: string }, locale: string): PlatformWords {
  const platformText = reason.display ?? reason.text;
  if (isReasonCode(reason.code) && REASON_SYSTEMS.has(reason.system)) return answer(ADJUDICATION_REASONS[reason.code][lang(locale)], platformText);
  return unknown(platformText, reason.code);
}

const FIXED: Readonly<Record<FixedDisposition, BilingualDisplay>> = {
  claimComplete: { en: "Claim approved according to the plan's benefits", ar: "تمت الموافقة على المطالبة وفق منافع الخطة" },
  preauthComplete: { en: "Authorization approved in full", ar: "تمت الموافقة على طلب الموافقة المسبقة بالكامل" },
  queued: { en: "Received; waiting for a decision", ar: "تم الاستلام، بانتظار القرار" },
  pended: { en: "Held for manual review", ar: "معلّق للمراجعة اليدوية" },
  coverageInForce: { en: "Coverage in force", ar: "التغطية سارية" },
  coverageInactive: { en: "Coverage not in force on the service date", ar: "التغطية غير سارية في تاريخ الخدمة" },
  remittance: { en: "Payment for decided claims", ar: "دفعة عن مطالبات صدر فيها القرار" },
  referenceMismatch: { en: "Claim denied: it no longer matches the platform's reference data", ar: "رُفضت المطالبة: لم تعد مطابقة للبيانات المرجعية لدى المنصة" },
};

const DENIED: Record<DispositionUse, BilingualDisplay> = {
  claim: { en: "Claim denied", ar: "رُفضت المطالبة" },
  preauthorization: { en: "Authorization denied", ar: "رُفض طلب الموافقة المسبقة" },
};
const PARTIAL: Record<DispositionUse, BilingualDisplay> = {
  claim: { en: "Claim partly approved", ar: "تمت الموافقة على المطالبة جزئياً" },
  preauthorization: { en: "Authorization partly approved", ar: "تمت الموافقة على طلب الموافقة المسبقة جزئياً" },
};
const SEPARATOR: Record<Lang, string> = { en: "; ", ar: "؛ " };

function dispositionText(facts: DispositionFacts, l: Lang): string {
  if (facts.kind === "fixed") return FIXED[facts.key][l];
  const reasons = facts.reasons.map((r) => ADJUDICATION_REASONS[r][l]).join(SEPARATOR[l]);
  if (facts.kind === "denied") return `${DENIED[facts.use][l]}: ${reasons}`;
  const count = l === "ar" ? `البنود المتأثرة ${facts.affected} من ${facts.items}` : `${facts.affected} of ${facts.items} items affected`;
  return `${PARTIAL[facts.use][l]} (${count}): ${reasons}`;
}

/** A disposition (`ClaimResponse.disposition`, eligibility, remittance, status check). */
export function dispositionWords(text: string, locale: string): PlatformWords {
  const facts = readDisposition(text);
  return facts ? answer(dispositionText(facts, lang(locale)), text) : unknown(text);
}

const OVERALL: Readonly<Record<AdjudicationOutcome, BilingualDisplay>> = {
  approved: { en: "Claim approved in full according to the benefits", ar: "تمت الموافقة على المطالبة كاملة وفق المنافع" },
  partial: { en: "Partly approved", ar: "تمت الموافقة جزئياً" },
  rejected: { en: "Claim rejected", ar: "تم رفض المطالبة" },
  pended: { en: "Claim under manual review", ar: "المطالبة قيد المراجعة اليدوية" },
  "not-required": { en: "No approval required", ar: "لا تتطلب موافقة" },
};

function noteText(facts: NoteFacts, l: Lang): string {
  if (facts.kind === "overall") return OVERALL[facts.outcome][l];
  if (facts.kind === "itemReplaced")
    return l === "ar" ? `استُبدل البند ${facts.item} بالخدمة المتعاقد عليها بسعر القائمة` : `Item ${facts.item} replaced by the contracted service at the price-list rate`;
  return `${l === "ar" ? "البند" : "Item"} ${facts.item}: ${ADJUDICATION_REASONS[facts.reason][l]}`;
}

/** A process note (`ClaimResponse.processNote.text`). */
export function noteWords(text: string, locale: string): PlatformWords {
  const facts = readNote(text);
  return facts ? answer(noteText(facts, lang(locale)), text) : unknown(text);
}

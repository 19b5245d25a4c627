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
  referenceMismatch: { en: "Claim denied: it no longer matches the exchange's reference data", ar: "رُفضت المطالبة: لم تعد مطابقة للبيانات المرجعية لدى منصة التبادل" },
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

/**
 * The spec's error codes (its error table: ERR-001…005) in words a clerk can act on. The codes are
 * the exchange's; the words are ours. The rules of the national exchange (BV-, IC-, DT-…, the guide's
 * codes) have no words of ours: their text is the exchange's own and is shown as such.
 */
const ERRORS: Readonly<Record<string, BilingualDisplay>> = {
  "ERR-001": { en: "The patient's identifier is not valid: check the national ID or Iqama number.", ar: "معرّف المريض غير صالح: تحقق من رقم الهوية أو الإقامة." },
  "ERR-002": { en: "The insurer has no coverage for this patient: check the insurance card and the coverage chosen.", ar: "لا توجد لدى شركة التأمين تغطية لهذا المريض: تحقق من بطاقة التأمين والتغطية المختارة." },
  "ERR-003": { en: "A code is not known to the exchange: check the diagnosis and service codes.", ar: "أحد الرموز غير معروف لدى منصة التبادل: تحقق من رموز التشخيص والخدمات." },
  "ERR-004": { en: "A required field is missing: complete the claim.", ar: "حقل مطلوب مفقود: أكمل المطالبة." },
  "ERR-005": { en: "The exchange already holds this claim.", ar: "المطالبة موجودة لدى منصة التبادل بالفعل." },
  // Our own: the eligibility check made just before sending stopped the claim (docs/decisions/124).
  "CV-P-1": { en: "Stopped before sending: the eligibility check made before sending says the coverage is not in force on the service date. Bill the patient or another coverage, or check eligibility again if the coverage was renewed.", ar: "أُوقفت قبل الإرسال: التحقق من الأهلية الذي أُجري قبل الإرسال يفيد بأن التغطية غير سارية في تاريخ الخدمة. حمّل المريض أو تغطية أخرى، أو أعد التحقق من الأهلية إن جُددت التغطية." },
  "CV-P-2": { en: "Stopped before sending: the eligibility check made before sending says the plan does not cover a service on it. Remove that line and bill the patient for it, or correct its code.", ar: "أُوقفت قبل الإرسال: التحقق من الأهلية الذي أُجري قبل الإرسال يفيد بأن الخطة لا تغطي إحدى خدماتها. احذف ذلك البند وحمّل المريض تكلفته، أو صحّح رمزه." },
  unknown: { en: "No reason given", ar: "لم يُذكر سبب" },
  http: { en: "The exchange could not be reached", ar: "تعذّر الوصول إلى منصة التبادل" },
};

/**
 * An error the exchange answered (a refused or failed submission): our words for the spec's codes;
 * for any other code the exchange's own text, marked as such (`known: false`), with the code.
 */
export function errorWords(error: { code?: string; status?: number; diagnostics?: string; resolution?: string }, locale: string): PlatformWords {
  const l = lang(locale);
  const code = error.code?.trim();
  const theirs = error.resolution ?? error.diagnostics;
  if (code && Object.prototype.hasOwnProperty.call(ERRORS, code)) return { ...answer(ERRORS[code]![l], undefined), code };
  if (!code && error.status) return { words: ERRORS.http![l], known: true, code: `HTTP ${error.status}` };
  const text = theirs?.trim();
  return text ? { words: text, known: false, ...(code ? { code } : {}) } : { words: ERRORS.unknown![l], known: false, ...(code ? { code } : {}) };
}

/**
 * A reason as the dashboard keeps it (drizzle 0005 `dashboard_reason`): the first error code of a
 * refused or failed submission ("ERR-002", "http-502", "unknown"), or the disposition of a denied
 * or partly approved one. Always words in the page's language when we have them, the code beside.
 */
export function platformReasonWords(reason: string, locale: string): PlatformWords {
  const given = reason.trim();
  const http = /^http-(\d{3})$/.exec(given);
  if (http) return errorWords({ status: Number(http[1]) }, locale);
  if (given === "unknown" || given === "") return { words: ERRORS.unknown![lang(locale)], known: true };
  if (/^[A-Z]{2,4}-[A-Z0-9-]{1,12}$/.test(given)) {
    if (Object.prototype.hasOwnProperty.call(ERRORS, given)) return errorWords({ code: given }, locale);
    return { words: given, known: false, code: given };
  }
  return dispositionWords(given, locale);
}

const THEIRS: BilingualDisplay = { en: "the payer's words", ar: "بنص شركة التأمين" };

/** One line of plain text (a table cell, a CSV, a chart's label): the words, the code beside, the payer's own text marked. */
export function platformWordsLine(value: PlatformWords, locale: string): string {
  const l = lang(locale);
  const theirs = !value.known && value.words !== value.code;
  const notes = [theirs ? THEIRS[l] : undefined, value.code].filter(Boolean);
  return `${value.words}${notes.length ? ` (${notes.join(l === "ar" ? "، " : ", ")})` : ""}`;
}

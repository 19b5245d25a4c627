/** lib/i18n: locales, the language switch and the message catalogues (docs/decisions/041-module-entries.md). */
export { DEFAULT_LOCALE, LOCALES, LOCALE_COOKIE, directionOf, isLocale } from "./config";
export type { Locale } from "./config";
export { setLocaleAction } from "./actions";
/** The English catalogue, for words outside a page (e.g. the admin CLI's reports). */
export { default as englishMessages } from "./messages/en.json";
export { DECISION_STATUS, STATUS_ORDER, outcomeOfView, statusLabel } from "./status-words";
export type { StatusOutcome, StatusTone, StatusWord } from "./status-words";
export { paymentLabel, remittanceWord, type PaymentWord } from "./status-words";
export { dispositionWords, errorWords, noteWords, platformReasonWords, platformWordsLine, reasonWords, type PlatformWords } from "./platform-words";

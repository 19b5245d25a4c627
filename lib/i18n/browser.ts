/**
 * What the browser may import from lib/i18n: the locales and the language switch's server action
 * (docs/decisions/041-module-entries.md).
 */
export { LOCALES, directionOf, isLocale } from "./config";
export type { Locale } from "./config";
export { setLocaleAction } from "./actions";
export { STATUS_ORDER, STATUS_WORDS, statusLabel } from "./status-words";
export { dispositionWords, errorWords, noteWords, platformReasonWords, platformWordsLine, reasonWords, type PlatformWords } from "./platform-words";

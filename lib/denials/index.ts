/** Denials (docs/decisions/076): reasons classified into the exchange's families, with words in both languages. */
export { classifyReason, familyName, reasonLabel, reasonWithCode, FAMILIES, FIXABLE_FAMILIES, PORTAL_REASON_FAMILIES, type Family, type ReasonClass } from "./classify";

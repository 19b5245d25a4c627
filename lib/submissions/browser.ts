/**
 * What the browser may import from lib/submissions: the form's pure helpers — never the database
 * (docs/decisions/041-module-entries.md).
 */
export { lineTotalMinor, parseAmountMinor, parseQuantity } from "./form-money";
export { emptyItem } from "./empty-item";
export { CPT_SYSTEM, defaultItemSystem, itemSystemsFor, itemSystemsOfProtocol, type PlatformProtocol } from "./care-setting";

/** The form's schema (and zod), loaded when the form is first used: not in the page's first-load JavaScript. */
export const loadSubmissionFormSchema = () => import("./form-schema").then((m) => m.submissionFormSchema);

/** lib/deadlines (docs/decisions/048): per-insurer filing windows, countdowns and claims at risk. Decision 048. */
export { DEFAULT_WINDOWS, WARN_DAYS, deadlineFrom, earliestServiceDate, type Deadline, type DeadlineKind, type FilingWindows } from "./deadline";
export { claimsAtRisk, deadlinesFor, filingWindows, listInsurerSettings, saveInsurer, type AtRisk, type InsurerInput, type InsurerSettings } from "./queries";
export { filingWindowDays } from "./filing-window";
export { insurerSchema, type InsurerFormInput } from "./schema";

/**
 * lib/visits: eligibility ahead of the visit (decisions 043–044) — visit lists (CSV,
 * picked patients, the exchange API and the gateway's record agent), paced batch runs through the
 * shared rate limiter at batch priority, the morning worklist and its dashboard figures.
 */
export { parseCsv, type CsvRecord } from "./csv";
export { MAX_VISITS_PER_LIST, VisitListAnswerSchema, VisitListBodySchema, VisitListStatusSchema, VisitRowSchema, type VisitListBody, checkVisitItems, checkVisitRow, readVisitCsv, type GoodVisitRow, type RowCheckOptions, type VisitRowInput } from "./rows";
export { PROBLEM_VERDICTS, VERDICT_SEVERITY, serviceCategories, verdictOfBenefits } from "./verdict";
export { activeInsurers, createVisitList, visitListStatus, getVisitList, recentVisitLists, relinkPatients, visitsOfList, type CreatedList } from "./lists";
export { VISITS_AUDIENCE, VISIT_RUN_EVENT, cancelRun, createRun, getRun, leaseVisits, runProgress, runsOfList, startVisitWorker, type VisitWorker, type VisitWorkerOptions } from "./runs";
export { aheadStats, parseWorklistFilters, worklist, type AheadStats, type WorklistFilters, type WorklistRow } from "./worklist";
export { importVisitList, type ImportInput } from "./import";
export { hasVisitsFor } from "./reads";

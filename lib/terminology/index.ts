/**
 * lib/terminology: the code catalogue (docs/decisions/086) — the exchange's service, procedure,
 * oral-health, medication, imaging and laboratory codes, ICD-10-AM and CPT, imported from the
 * clinic's own files (CSV, FHIR CodeSystem) over a small demo catalogue, and searched by the pickers.
 */
export { CodeFileError, DEMO_VERSION, catalogueOverview, codeNames, ensureDemoCatalogue, importCodes, lookupCodes, mdsCodeLists, searchCodes, specialtyNames } from "./catalogue";
export type { CodeHit, ImportFormat, ImportInput, ImportSummary, SystemOverview } from "./catalogue";
export { CATALOGUE_SYSTEMS, catalogueSystem, systemUrl } from "./systems";
export type { CatalogueSystem, CatalogueSystemKey } from "./systems";
export { TERMINOLOGY_IMPORT_LIMITS, chunksOfFile, chunksOfRequest, ImportTooLargeError } from "./streams";

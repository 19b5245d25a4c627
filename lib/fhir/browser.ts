/**
 * What the browser may import from lib/fhir: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { findCode, searchTerminology } from "./terminology";

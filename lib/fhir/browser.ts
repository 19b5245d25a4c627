/**
 * What the browser may import from lib/fhir: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { findCode, searchTerminology } from "./terminology";
export { ADJUDICATION_REASONS, CODE_SYSTEMS, NATIONAL_EXCHANGE, PLATFORM_CURRENCY, SANDBOX_ADJUDICATION_REASON_SYSTEM } from "./systems";
export type { AdjudicationOutcome, AdjudicationReasonCode, BilingualDisplay } from "./systems";
export { readDisposition, readNote } from "./platform-texts";
export type { DispositionFacts, DispositionUse, FixedDisposition, NoteFacts } from "./platform-texts";

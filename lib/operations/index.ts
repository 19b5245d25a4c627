/** lib/operations: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { BackupFormatError, backupDatabase, restoreDatabase } from "./backup";
export { readiness } from "./readiness";
export { refreshGauges, systemStatus } from "./status";
export type { SystemStatus, Tone } from "./status";

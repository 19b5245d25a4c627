/**
 * What the browser may import from lib/attachments: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES, checkLimits, formatBytes } from "./limits";

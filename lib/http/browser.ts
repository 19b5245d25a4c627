/**
 * What the browser may import from lib/http: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { ATTACHMENT_BODY_LIMIT_BYTES } from "./limits";

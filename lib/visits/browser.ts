/**
 * What the browser may import from lib/visits: server-action references and pure helpers — never
 * the database (docs/decisions/041-module-entries.md).
 */
export { authorizationFromVisitAction, cancelRunAction, startRunAction, uploadVisitListAction, type UploadVisitListResult } from "./actions";

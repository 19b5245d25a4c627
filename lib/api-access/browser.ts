/**
 * What the browser may import from lib/api-access: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { addOrgKeyAction, createOrgClientAction, revokeOrgKeyAction, setOrgClientDisabledAction } from "./actions";

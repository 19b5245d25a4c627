/**
 * What the browser may import from lib/auth: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { signInAction } from "./actions";
export { signInSchema } from "./schemas";

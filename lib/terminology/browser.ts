/**
 * What the browser may import from lib/terminology: the pickers' server-action references and the
 * catalogue's systems (pure data) — never the database (docs/decisions/041).
 */
export { describeCodesAction, searchCodesAction } from "./actions";
export { CATALOGUE_SYSTEMS, catalogueSystem, systemUrl } from "./systems";
export type { CatalogueSystem, CatalogueSystemKey } from "./systems";
export type { CodeHit } from "./catalogue";

/** lib/server: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { INBOUND_HANDLERS } from "./inbound-handlers";

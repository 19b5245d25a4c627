/** lib/server: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { shutdownState } from "./shutdown-state";
export { INBOUND_HANDLERS } from "./inbound-handlers";

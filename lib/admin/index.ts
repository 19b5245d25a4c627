/** lib/admin: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { parseArgv } from "./argv";
export { databaseCommands } from "./commands";
export { runAdminCommand } from "./run";
export { startAdminSocket } from "./socket";
export { CommandInputError } from "./types";
export type { AdminCommand } from "./types";

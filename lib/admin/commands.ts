import type { AdminCommand } from "./types";
import { userCommands } from "./user-commands";

/** Commands that act on the portal's database; the portal serves these over its admin socket. */
export const databaseCommands: AdminCommand[] = [...userCommands];

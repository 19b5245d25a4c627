import { orgKeyCommands } from "./org-key-commands";
import { apiAccessCommands } from "./api-access-commands";
import { gatewayCommands } from "./gateway-commands";
import type { AdminCommand } from "./types";
import { metricsCommands } from "./metrics-commands";
import { operationsCommands } from "./operations-commands";
import { patientCommands } from "./patient-commands";
import { userCommands } from "./user-commands";
import { facilityCommands } from "./facility-commands";
import { contractCommands } from "./contract-commands";
import { terminologyCommands } from "./terminology-commands";

/** Commands that act on the portal's database; the portal serves these over its admin socket. */
export const databaseCommands: AdminCommand[] = [...userCommands, ...orgKeyCommands, ...apiAccessCommands, ...gatewayCommands, ...metricsCommands, ...operationsCommands, ...patientCommands, ...facilityCommands, ...contractCommands, ...terminologyCommands];

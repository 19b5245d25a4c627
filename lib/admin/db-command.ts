import { ApiAccessInputError, OrgKeyInputError } from "@/lib/api-access";
import { audit, type AuditEntry } from "@/lib/audit";
import { UserInputError } from "@/lib/auth";
import type { Db } from "@/lib/db";
import { FacilityInputError } from "@/lib/facilities";
import { CommandInputError, type AdminCommand, type CommandArgs, type CommandResult } from "./types";

/** Who the audit log names for every change the CLI makes. */
export const CLI_ACTOR = { kind: "system", name: "admin-cli" } as const;

/** Refusals of the domain that are the operator's to fix: printed as they are, exit code 2. */
function isInputError(error: unknown): error is Error {
  return error instanceof ApiAccessInputError || error instanceof OrgKeyInputError || error instanceof UserInputError || error instanceof FacilityInputError;
}

export interface DbCommandArgs extends CommandArgs {
  db: Db;
  /** Writes an audit entry with the CLI as actor. */
  audit(entry: Omit<AuditEntry, "actor">): Promise<void>;
}

/**
 * The one pattern of an admin command on the portal's database: it gets the database (the portal
 * hands it over the admin socket on PGlite), an audit writer with the CLI as actor, and any
 * input refusal of the domain becomes a CommandInputError.
 */
export function dbCommand(spec: Omit<AdminCommand, "needsDb" | "run"> & { run(args: DbCommandArgs): Promise<CommandResult> }): AdminCommand {
  return {
    ...spec,
    needsDb: true,
    async run(args) {
      const db = args.db;
      if (!db) throw new Error("This command needs the database.");
      try {
        return await spec.run({ ...args, db, audit: (entry) => audit(db, { ...entry, actor: CLI_ACTOR }) });
      } catch (error) {
        if (isInputError(error)) throw new CommandInputError(error.message);
        throw error;
      }
    },
  };
}

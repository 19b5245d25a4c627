import type { Db } from "@/lib/db";

export interface CommandArgs {
  /** Every `--name value` pair; a flag may repeat (`--role a --role b`). Bare flags hold "true". */
  flags: Record<string, string[]>;
  /** Standard input of the CLI, read in full (used by --password-stdin). */
  stdin: () => Promise<string>;
}

export interface CommandResult {
  /** What a person reads. */
  text: string;
  /** What `--json` prints. */
  json: unknown;
}

export interface AdminCommand {
  name: string;
  summary: string;
  usage: string;
  /** Commands that need the portal's database run inside the portal when it holds PGlite. */
  needsDb: boolean;
  /** Reads its input from standard input (records to import); --password-stdin does too. */
  readsStdin?: boolean;
  run(args: CommandArgs & { db?: Db }): Promise<CommandResult>;
}

/** A mistake in the command line: printed as it is, exit code 2. */
export class CommandInputError extends Error {
  override name = "CommandInputError";
}

export function single(flags: Record<string, string[]>, name: string, required = true): string | undefined {
  const values = flags[name];
  if (!values?.length || values[0] === "true") {
    if (required) throw new CommandInputError(`--${name} is required.`);
    return undefined;
  }
  if (values.length > 1) throw new CommandInputError(`--${name} may be given only once.`);
  return values[0];
}

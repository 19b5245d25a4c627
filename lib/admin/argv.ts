import { CommandInputError } from "./types";

export interface ParsedArgv {
  command?: string;
  flags: Record<string, string[]>;
  json: boolean;
  help: boolean;
}

/** `<command> [--flag value]… [--bare-flag]… [--json]`; `--flag=value` works too. */
export function parseArgv(argv: string[]): ParsedArgv {
  const flags: Record<string, string[]> = {};
  let command: string | undefined;
  let json = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--help" || arg === "-h") help = true;
    else if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new CommandInputError(`"${arg}" is not a valid option.`);
      let value = eq > 0 ? arg.slice(eq + 1) : "true";
      if (eq < 0 && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) value = argv[++i]!;
      (flags[name] ??= []).push(value);
    } else if (!command) command = arg;
    else throw new CommandInputError(`Unexpected argument "${arg}". Options start with --.`);
  }
  return { command, flags, json, help };
}

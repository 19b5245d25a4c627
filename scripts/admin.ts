/**
 * The admin command line: `npm run admin -- <command> [options] [--json]`.
 * Works while the portal runs (PGlite: through the portal's admin socket) and while it does not.
 */
import path from "node:path";
import { parseArgv, databaseCommands, runAdminCommand, CommandInputError } from "@/lib/admin";
import type { AdminCommand } from "@/lib/admin";
import { ConfigError } from "@/lib/env";
import { sandboxAdminCommands } from "@/sandbox/admin-commands";

/** The portal's own commands, and the sandbox's (credentials, certificate renewal). */
const commands: AdminCommand[] = [...databaseCommands, ...(sandboxAdminCommands as AdminCommand[])];

function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    return Promise.reject(new CommandInputError("This command reads standard input: pipe it in, e.g. printf '%s' \"$PASSWORD\" | npm run admin -- … --password-stdin, or npm run admin -- patient:import < patients.json"));
  }
  return new Promise((resolve, reject) => {
    let data = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (c) => (data += c));
    process.stdin.on("end", () => resolve(data));
    process.stdin.on("error", reject);
  });
}

function help(commands: AdminCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "Usage: npm run admin -- <command> [options] [--json]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}\n  ${" ".repeat(width)}  ${c.usage}`),
  ].join("\n");
}

async function main(): Promise<number> {
  let json = false;
  try {
    const argv = parseArgv(process.argv.slice(2));
    json = argv.json;
    if (!argv.command || (argv.help && !argv.command)) {
      console.log(help(commands));
      return argv.command || argv.help ? 0 : 2;
    }
    const command = commands.find((c) => c.name === argv.command);
    if (!command) throw new CommandInputError(`Unknown command "${argv.command}". Run with --help to list the commands.`);
    if (argv.help) {
      console.log(`${command.summary}\nUsage: npm run admin -- ${command.usage} [--json]`);
      return 0;
    }
    // File paths are resolved here: on PGlite the command may run inside the portal, in another folder.
    for (const name of ["out", "from"]) {
      const values = argv.flags[name];
      if (values) argv.flags[name] = values.map((v) => (v === "true" ? v : path.resolve(v)));
    }
    const result = await runAdminCommand(command, { flags: argv.flags, stdin: readStdin });
    console.log(json ? JSON.stringify(result.json, null, 2) : result.text);
    return 0;
  } catch (error) {
    const known = error instanceof CommandInputError || error instanceof ConfigError;
    const message = (error as Error).message;
    if (json) console.log(JSON.stringify({ error: message }));
    else console.error(known ? message : `Error: ${message}`);
    return known ? 2 : 1;
  }
}

main().then((code) => process.exit(code));

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Db } from "@/lib/db";
import { databaseCommands } from "./commands";
import { CommandInputError, type CommandResult } from "./types";
import { log } from "@/lib/log";
import { describeError } from "@/lib/http";

/** The command's name for a log line (never its flags or input). */
function describeCommand(line: string): string {
  try {
    const name = (JSON.parse(line) as { command?: unknown }).command;
    return typeof name === "string" && /^[a-z0-9:_-]{1,60}$/i.test(name) ? name : "(unknown)";
  } catch {
    return "(unreadable)";
  }
}

/**
 * PGlite lets one process open a data directory. While the portal runs, it holds the database,
 * so the admin CLI hands its command to the portal through this Unix socket (mode 0600 in the
 * data directory: only the account that runs the portal can use it) and prints the answer.
 */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "admin.sock");
}

export interface SocketRequest {
  command: string;
  flags: Record<string, string[]>;
  stdin: string;
}

export type SocketResponse = { ok: true; result: CommandResult } | { ok: false; inputError: boolean; message: string };

const MAX_REQUEST_BYTES = 1024 * 1024;

export async function startAdminSocket(dataDir: string, getDb: () => Promise<Db>): Promise<net.Server> {
  const file = adminSocketPath(dataDir);
  fs.rmSync(file, { force: true });
  const server = net.createServer((socket) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) return socket.destroy();
      const newline = buffer.indexOf("\n");
      if (newline < 0) return;
      socket.removeAllListeners("data");
      void answer(buffer.slice(0, newline), getDb).then((response) => socket.end(`${JSON.stringify(response)}\n`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => resolve());
  });
  fs.chmodSync(file, 0o600);
  process.once("exit", () => fs.rmSync(file, { force: true }));
  return server;
}

async function answer(line: string, getDb: () => Promise<Db>): Promise<SocketResponse> {
  try {
    const request = JSON.parse(line) as SocketRequest;
    const command = databaseCommands.find((c) => c.name === request.command);
    if (!command) return { ok: false, inputError: true, message: `Unknown command ${request.command}.` };
    const result = await command.run({ flags: request.flags ?? {}, stdin: async () => request.stdin ?? "", db: await getDb() });
    return { ok: true, result };
  } catch (error) {
    const inputError = error instanceof CommandInputError;
    // Name and code only, in the log and in the answer: a failed query's message quotes its parameters (patient data).
    if (!inputError) log("admin").error(`command ${describeCommand(line)} failed: ${describeError(error)}`);
    return { ok: false, inputError, message: inputError ? (error as Error).message : `The portal could not run the command (${describeError(error)}).` };
  }
}

export function sendAdminCommand(dataDir: string, request: SocketRequest, timeoutMs = 60_000): Promise<SocketResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(adminSocketPath(dataDir));
    let data = "";
    socket.setEncoding("utf8");
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error("The portal did not answer the admin command in time.")));
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        resolve(JSON.parse(data) as SocketResponse);
      } catch {
        reject(new Error("The portal closed the admin connection without an answer."));
      }
    });
  });
}

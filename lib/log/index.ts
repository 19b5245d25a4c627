/**
 * The portal's one logger (pino). Every server-side log line goes through here:
 * - LOG_FORMAT=json: one JSON object a line — time, level, component, msg and fields such as
 *   requestId, route (the route pattern, never the concrete path), status, durationMs, actorId;
 * - LOG_FORMAT=pretty, or `auto` in a terminal (`npm start`): the same, formatted for people.
 *
 * Lines carry ids and codes only: never patient identifiers, names, request or response bodies,
 * or SQL parameters. As a second line of defence, fields under the names in REDACTED are censored.
 *
 * Written on the calling thread (no worker-thread transport: those break inside Next.js bundles),
 * and cached on globalThis because Next.js bundles instrumentation and each route separately.
 */
import pino, { type Logger } from "pino";
import { env, logLevel, type Env } from "@/lib/env";
import { prettyLine } from "./format";

export type { Logger } from "pino";

/** Field names that must never reach a log line with their value. */
export const REDACTED = ["patientId", "nationalId", "identifier", "name", "given", "family", "birthDate", "body", "params", "password", "token", "authorization", "cookie"];

const redactPaths = REDACTED.flatMap((key) => [key, `*.${key}`]);

export interface LogSink {
  write(line: string): void;
}

/** Builds a logger writing to `sink` (default: standard output in the configured format). */
export function createLog(options: { level?: string; format?: "json" | "pretty"; sink?: LogSink } = {}): Logger {
  const e = envOrDefaults();
  const format = options.format ?? (e.LOG_FORMAT === "auto" ? (process.stdout.isTTY ? "pretty" : "json") : e.LOG_FORMAT);
  const colour = format === "pretty" && Boolean(process.stdout.isTTY) && !options.sink;
  const out: LogSink = options.sink ?? { write: (line) => void process.stdout.write(line) };
  const destination: LogSink = format === "pretty" ? { write: (line) => out.write(prettyLine(line.trimEnd(), colour)) } : out;
  return pino(
    {
      level: options.level ?? logLevel(e as Env),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactPaths, censor: "[redacted]" },
    },
    destination,
  );
}

/** The logger must work even when the configuration is broken: that is what it has to report. */
function envOrDefaults(): Pick<Env, "LOG_FORMAT" | "LOG_LEVEL" | "NODE_ENV"> {
  try {
    return env();
  } catch {
    return { LOG_FORMAT: "auto", LOG_LEVEL: undefined, NODE_ENV: "production" };
  }
}

const KEY = Symbol.for("clinic-exchange.log");
type Holder = { [KEY]?: Logger };

/** The process-wide root logger. */
export function rootLog(): Logger {
  const holder = globalThis as Holder;
  holder[KEY] ??= createLog();
  return holder[KEY];
}

/** A logger for one part of the portal: every line carries `component`. */
export function log(component: string): Logger {
  return rootLog().child({ component });
}

/** The message of an unknown thrown value, for a log line (no stack, no data). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * For modules whose `log`/`warn` option takes one finished line such as `[outbox] submission … failed`:
 * the bracketed prefix becomes the component.
 */
export function lineWriter(level: "info" | "warn" | "error" = "warn"): (line: string) => void {
  return (line) => {
    const match = /^\[([\w\-. ]+)\]\s*(.*)$/s.exec(line);
    if (match) log(match[1]!)[level](match[2]!);
    else rootLog()[level](line);
  };
}

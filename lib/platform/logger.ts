/**
 * The platform client's logger: one line per platform call. It never receives bodies, query
 * strings or patient ids — callers pass path templates such as `/Claim/{id}`.
 * It writes through the portal's logger (lib/log, component `platform`); a `write` function
 * instead (tests, benchmarks) gets plain text lines. Level: LOG_LEVEL; silent under tests.
 */
import { logLevel } from "@/lib/env";
import { log } from "@/lib/log";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface PlatformLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function defaultLogLevel(): LogLevel {
  try {
    return logLevel();
  } catch {
    return "info";
  }
}

export function createLogger(level: LogLevel = defaultLogLevel(), write?: (line: string) => void): PlatformLogger {
  const min = ORDER[level];
  if (!write) {
    if (level === "silent") return silent;
    const target = log("platform");
    target.level = level;
    return {
      debug: (m) => target.debug(m),
      info: (m) => target.info(m),
      warn: (m) => target.warn(m),
      error: (m) => target.error(m),
    };
  }
  const emit = (lvl: Exclude<LogLevel, "silent">) => (message: string) => {
    if (ORDER[lvl] >= min) write(`${new Date().toISOString()} ${lvl.toUpperCase()} [platform] ${message}`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

const noop = () => {};
const silent: PlatformLogger = { debug: noop, info: noop, warn: noop, error: noop };
export const silentLogger: PlatformLogger = silent;

import { env, type Env } from "@/lib/env";

/**
 * A tiny leveled logger for the platform client: one line per platform call. It never receives
 * bodies, query strings or patient ids — callers pass path templates such as `/Claim/{id}`.
 * Level: LOG_LEVEL (debug|info|warn|error|silent); silent by default under tests (NODE_ENV=test).
 */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface PlatformLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function defaultLogLevel(e: Pick<Env, "LOG_LEVEL" | "NODE_ENV"> = env()): LogLevel {
  return e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info");
}

export function createLogger(level: LogLevel = defaultLogLevel(), write: (line: string) => void = (line) => console.log(line)): PlatformLogger {
  const min = ORDER[level];
  const emit = (lvl: Exclude<LogLevel, "silent">) => (message: string) => {
    if (ORDER[lvl] >= min) write(`${new Date().toISOString()} ${lvl.toUpperCase()} [platform] ${message}`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

export const silentLogger: PlatformLogger = createLogger("silent");

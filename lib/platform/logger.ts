
/**
 * The platform client's logger: one line per platform call. It never receives bodies, query
 * strings or patient ids — callers pass path templates such as `/Claim/{id}`.
 * It writes through the portal's logger (lib/log, component `platform`); a `write` function
 * instead (tests, benchmarks) gets plain text lines. Level: LOG_LEVEL; silent under tests.
 */
import { logLevel } from "@/lib/env";
import { log } from "@/lib/log";
import { observePlatformCall, type CallGroup } from "@/lib/metrics";

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
      info: (m) => {
        observeCallLine(m);
        target.info(m);
      },
      warn: (m) => target.warn(m),
      error: (m) => target.error(m),
    };
  }
  const emit = (lvl: Exclude<LogLevel, "silent">) => (message: string) => {
    if (ORDER[lvl] >= min) write(`${new Date().toISOString()} ${lvl.toUpperCase()} [platform] ${message}`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

const CALL_LINE = /^(GET|POST|PUT|DELETE|PATCH) (\S+) (\d{3}|-) \S+ ([\d.]+)ms/;

/** Which of the platform's rate-limit groups a path template belongs to. */
export function callGroup(method: string, template: string): CallGroup {
  if (template.includes("CoverageEligibility")) return "eligibility";
  if (method === "POST" && /^\/?(Claim|\$process-message)/.test(template.replace(/^\//, ""))) return "claims";
  return "status";
}

/** The client logs one line per call (`POST /Claim 201 <request id> 12.3ms`): that line feeds the metrics. */
function observeCallLine(message: string): void {
  const match = CALL_LINE.exec(message);
  // Token requests count against no rate-limit group.
  if (!match || match[2]!.startsWith("/oauth")) return;
  observePlatformCall(callGroup(match[1]!, match[2]!), match[3] === "-" ? 0 : Number(match[3]), Number(match[4]));
}

const noop = () => {};
const silent: PlatformLogger = { debug: noop, info: noop, warn: noop, error: noop };
export const silentLogger: PlatformLogger = silent;

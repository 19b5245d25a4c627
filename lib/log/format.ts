/**
 * Turns one pino JSON line into a line for people reading a terminal:
 * `12:04:05.123 INFO  [outbox] message  key=value …`. Used when LOG_FORMAT is `pretty` (or `auto`
 * in a terminal); collectors get the JSON line unchanged.
 */
const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const COLOURS: Record<string, string> = { DEBUG: "\x1b[90m", INFO: "\x1b[32m", WARN: "\x1b[33m", ERROR: "\x1b[31m", FATAL: "\x1b[35m" };
const OMIT = new Set(["level", "time", "msg", "pid", "hostname", "component"]);

export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const time = entry.time === undefined ? "" : new Date(entry.time as string | number).toISOString().slice(11, 23);
  const level = LEVELS[entry.level as number] ?? String(entry.level).toUpperCase();
  const tag = colour ? `${COLOURS[level] ?? ""}${level.padEnd(5)}\x1b[0m` : level.padEnd(5);
  const component = entry.component ? `[${String(entry.component)}] ` : "";
  const extras = Object.entries(entry)
    .filter(([key]) => !OMIT.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  return `${time} ${tag} ${component}${String(entry.msg ?? "")}${extras ? `  ${extras}` : ""}\n`;
}

import { describe, expect, it } from "vitest";
import { createLog } from "./index";
import { prettyLine } from "./format";

function capture(format: "json" | "pretty") {
  const lines: string[] = [];
  const logger = createLog({ level: "debug", format, sink: { write: (line) => void lines.push(line) } });
  return { logger, lines };
}

describe("lib/log", () => {
  it("writes one JSON object a line with time, level, request id, route, status, duration and actor", () => {
    const { logger, lines } = capture("json");
    logger.child({ component: "http" }).info({ requestId: "r-1", route: "/v1/claims/[id]", status: 200, durationMs: 12, actorId: "u-9" }, "request");
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: "info", component: "http", requestId: "r-1", route: "/v1/claims/[id]", status: 200, durationMs: 12, actorId: "u-9", msg: "request" });
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
  });

  it("censors patient identifiers, names, bodies and SQL parameters even when a caller passes them", () => {
    const { logger, lines } = capture("json");
    logger.warn({ patientId: "1000000001", body: { name: "Sara" }, params: ["2087654311"], detail: { nationalId: "1000000002", name: "Ali" } }, "oops");
    const line = lines.join("");
    for (const secret of ["1000000001", "Sara", "2087654311", "1000000002", "Ali"]) expect(line).not.toContain(secret);
    expect(line).toContain("[redacted]");
  });

  it("pretty output is one readable line per entry, with the fields after the message", () => {
    const { logger, lines } = capture("pretty");
    logger.child({ component: "outbox" }).error({ submissionId: "s-1" }, "gave up");
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR \[outbox\] gave up {2}submissionId=s-1\n$/);
    expect(prettyLine("not json")).toBe("not json\n");
  });

  it("respects the level", () => {
    const lines: string[] = [];
    const logger = createLog({ level: "warn", format: "json", sink: { write: (l) => void lines.push(l) } });
    logger.info("hidden");
    logger.warn("shown");
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(["shown"]);
  });
});

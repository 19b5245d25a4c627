import fs from "node:fs";
import { expect, test } from "./fixtures";

/**
 * The national exchange's rules measured on what the portal really sent: runs after every other
 * spec of the run (Playwright project "conformance", which depends on "browser") and asks the
 * sandbox what its rule checker (lib/fhir/nphies, the one the portal's assembly uses) found in
 * each `$process-message` it received (`GET /_admin/conformance`, counts only). The table goes to
 * test-results/conformance<-run>.md and the console. In the REST protocol the portal sends no
 * message and there is nothing to measure.
 */

interface Report {
  messages: number;
  clean: number;
  byEvent: Record<string, { messages: number; clean: number }>;
  rules: { rule: string; code: string; severity: string; failing: number; events: string[] }[];
}

test("every message the portal sent in this run passes the exchange's rules", async ({ sandbox }) => {
  const report = (await sandbox.call("GET", "/_admin/conformance")) as Report;
  test.skip(report.messages === 0, "no message was sent in this run (REST protocol)");
  const run = process.env.E2E_RUN_NAME ? `-${process.env.E2E_RUN_NAME}` : "";
  const lines = [
    `# The exchange's rules on the ${report.messages} messages the portal sent (run${run || " (default)"})`,
    "",
    `${report.clean} of ${report.messages} messages without an error finding.`,
    "",
    "| event | messages | clean |",
    "|---|---|---|",
    ...Object.entries(report.byEvent).map(([event, n]) => `| ${event} | ${n.messages} | ${n.clean} |`),
    "",
    "| rule | code | severity | passing / total | failing in |",
    "|---|---|---|---|---|",
    ...report.rules.map((r) => `| ${r.rule} | ${r.code} | ${r.severity} | ${report.messages - r.failing} / ${report.messages} | ${r.events.join(", ")} |`),
  ];
  fs.mkdirSync("test-results", { recursive: true });
  fs.writeFileSync(`test-results/conformance${run}.md`, `${lines.join("\n")}\n`);
  console.log(`[conformance] ${report.clean} of ${report.messages} messages clean; failing rules: ${report.rules.filter((r) => r.failing > 0).map((r) => `${r.rule} ${r.failing}`).join(", ") || "none"}`);
  expect(report.rules.filter((r) => r.severity === "error" && r.failing > 0).map((r) => `${r.rule} (${r.code}): ${r.failing} messages, in ${r.events.join(", ")}`)).toEqual([]);
});

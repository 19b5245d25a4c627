/**
 * The national exchange's rules on the messages the portal really sent (the rule table of decision 092,
 * measured on traffic): reads the sandbox's conformance tally (sandbox/conformance-tally.ts, kept
 * in its data directory as conformance.json) after a browser run in the messaging protocol,
 * prints the table and writes it to test-results/conformance-<run>.md, with one check per rule of
 * severity error in test-results/conformance-<run>.json (read by scripts/test-summary.mjs). A rule
 * passes when no message breaks it, or when every place it is broken is a known gap listed below
 * (KNOWN, each with its reason): anything new the portal sends wrong fails the run.
 *   node --import tsx scripts/conformance-report.ts <sandbox data dir>/conformance.json <run name>
 */
import fs from "node:fs";
import type { ConformanceReport } from "../sandbox/conformance-tally";

/**
 * Where the browser journeys' messages still break a rule, and why; the rule passes only while
 * every path it fails at is listed here (decision 092).
 */
const KNOWN: { rule: string; paths: string[]; why: string }[] = [
  // None at present: every message of the journeys passes every rule (2026-11-28).
];

const [file, run = "messaging"] = process.argv.slice(2);
if (!file) {
  console.error("usage: conformance-report.ts <conformance.json> [run name]");
  process.exit(2);
}
fs.mkdirSync("test-results", { recursive: true });
const out = `test-results/conformance-${run}`;
if (!fs.existsSync(file)) {
  fs.writeFileSync(`${out}.json`, JSON.stringify({ checks: [{ name: "a conformance tally exists", ok: false, detail: `${file} is missing: the browser run did not reach the sandbox` }] }));
  console.error(`[conformance] ${file} is missing`);
  process.exit(1);
}
const report = JSON.parse(fs.readFileSync(file, "utf8")) as ConformanceReport;
const lines = [
  `# The exchange's rules on the ${report.messages} messages the portal sent (${run} run)`,
  "",
  `${report.clean} of ${report.messages} messages without an error finding.`,
  "",
  "| event | messages | without an error |",
  "|---|---|---|",
  ...Object.entries(report.byEvent).map(([event, n]) => `| ${event} | ${n.messages} | ${n.clean} |`),
  "",
  "| rule | code | severity | passing / total | failing in |",
  "|---|---|---|---|---|",
  ...report.rules.map((r) => `| ${r.rule} | ${r.code} | ${r.severity} | ${report.messages - r.failing} / ${report.messages} | ${r.events.join(", ")} |`),
  ...(report.rules.some((r) => r.failing > 0) ? ["", "Where (element paths, messages):", ""] : []),
  ...report.rules.filter((r) => r.failing > 0).map((r) => `- ${r.rule}: ${r.paths.map((p) => `\`${p.path}\` ${p.messages}`).join(", ")}`),
];
if (KNOWN.length) lines.push("", "Known gaps (decision 092):", "", ...KNOWN.map((k) => `- ${k.rule} at ${k.paths.map((p) => `\`${p}\``).join(", ")}: ${k.why}`));
fs.writeFileSync(`${out}.md`, `${lines.join("\n")}\n`);
const checks = [
  { name: "the portal sent messages", ok: report.messages > 0, detail: `${report.messages} messages` },
  ...report.rules
    .filter((r) => r.severity === "error")
    .map((r) => {
      if (r.failing === 0) return { name: `rule ${r.rule} (${r.code})`, ok: true, detail: `${report.messages} of ${report.messages} pass` };
      const known = KNOWN.find((k) => k.rule === r.rule);
      const unknownPaths = r.paths.filter((p) => !known?.paths.includes(p.path));
      const where = r.paths.map((p) => `${p.path} ${p.messages}`).join(", ");
      return unknownPaths.length === 0 && known
        ? { name: `rule ${r.rule} (${r.code})`, ok: true, detail: `known gap: ${r.failing} of ${report.messages} messages (${where}) — ${known.why}` }
        : { name: `rule ${r.rule} (${r.code})`, ok: false, detail: `${r.failing} of ${report.messages} messages fail it, in ${r.events.join(", ")}: ${where}` };
    }),
];
fs.writeFileSync(`${out}.json`, JSON.stringify({ checks }, null, 1));
console.log(lines.join("\n"));
const failing = checks.filter((c) => !c.ok);
for (const c of checks.filter((x) => x.detail.startsWith("known gap") || !x.ok)) console.log(`${c.ok ? "known" : "FAILED"}: ${c.name}: ${c.detail}`);
console.log(`\n[conformance] ${report.clean} of ${report.messages} messages clean; ${failing.length} of ${checks.length} checks fail`);
process.exit(failing.length > 0 ? 1 : 0);

// Prints one closing line for the whole suite from the Vitest and Playwright JSON reports, and the
// scale-out test's and the conformance report's (their checks; scale-out: one skipped when it had no PostgreSQL).
import fs from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const failures = [];
const firstLine = (text) => String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim()) ?? "";
// Playwright nests suites (file › describe › …) and specs with one result per try.
function playwrightFailures(suite, trail) {
  const here = suite.title ? [...trail, suite.title] : trail;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== "unexpected") continue;
      const last = test.results?.[test.results.length - 1];
      failures.push(`${[...here, spec.title].join(" › ")}: ${firstLine(last?.error?.message)}`);
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, here);
}
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    missing.push(file);
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  if ("numPassedTests" in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status === "failed") failures.push(`${file.name.replace(process.cwd() + "/", "")} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      }
      if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) failures.push(`${file.name.replace(process.cwd() + "/", "")}: ${firstLine(file.message)}`);
    }
  } else if (Array.isArray(report.checks)) {
    passed += report.checks.filter((c) => c.ok).length;
    failed += report.checks.filter((c) => !c.ok).length;
    for (const c of report.checks.filter((c) => !c.ok)) failures.push(`${file.replace(/^.*\//, "").replace(/\.json$/, "")} › ${c.name}: ${c.detail}`);
    if (report.skipped) skipped += 1;
  } else if (report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    for (const suite of report.suites ?? []) playwrightFailures(suite, []);
  }
}
for (const file of missing) console.log(`(no report at ${file}: that step did not run to the end)`);
for (const f of failures) console.log(`failed: ${f.slice(0, 400)}`);
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);

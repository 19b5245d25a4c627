// Prints one closing line for the whole suite from the Vitest and Playwright JSON reports, and the
// scale-out test's (scripts/scale-out.ts: its checks, or one skipped when it had no PostgreSQL).
import fs from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
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
  } else if (Array.isArray(report.checks)) {
    passed += report.checks.filter((c) => c.ok).length;
    failed += report.checks.filter((c) => !c.ok).length;
    if (report.skipped) skipped += 1;
  } else if (report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
}
for (const file of missing) console.log(`(no report at ${file}: that step did not run to the end)`);
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);

import fs from "node:fs";
import { DEMO_PATIENTS } from "../lib/patients/demo-data";
import { E2E_SERVER_LOG } from "../playwright.config";
import { PATIENTS } from "../sandbox/reference-data";
import { expect, test } from "./fixtures";

/**
 * The log scan: runs after every other browser test and the fuzz suite (Playwright
 * project "log-scan" depends on "browser"), over everything the portal and the sandbox printed
 * meanwhile (test-results/server.log, copied by the webServer command). No seeded national ID,
 * Iqama number or patient name may appear. The list comes from the seed data itself — the
 * portal's demo patients and the sandbox's reference patients — so it cannot drift.
 */

function seededSecrets(): { kind: string; value: string }[] {
  const out: { kind: string; value: string }[] = [];
  for (const p of DEMO_PATIENTS) {
    out.push({ kind: p.nationalId.startsWith("2") ? "Iqama" : "national ID", value: p.nationalId });
    out.push({ kind: "patient name", value: `${p.givenName} ${p.familyName}` });
    // A family name alone is identifying unless it is a generic word ("Patient One").
    if (!/^Patient /.test(p.familyName)) out.push({ kind: "family name", value: p.familyName });
    out.push({ kind: "phone", value: p.phone });
  }
  for (const p of PATIENTS) {
    out.push({ kind: p.kind === "resident" ? "Iqama" : "national ID", value: p.id });
    out.push({ kind: "patient name", value: p.name.en });
    out.push({ kind: "patient name", value: p.name.ar });
  }
  return [...new Map(out.map((s) => [s.value, s])).values()];
}

/** Whether a log line holds a seeded value (an ID only as a whole number, not inside a longer one). */
function holds(line: string, value: string): boolean {
  return /^\d+$/.test(value) ? new RegExp(`(?<![0-9])${value}(?![0-9])`).test(line) : line.includes(value);
}

test("the matcher finds what it looks for", () => {
  expect(holds("[x] lookup 1000000001 failed", "1000000001")).toBe(true);
  expect(holds("[x] request 21000000001 done", "1000000001")).toBe(false);
  expect(holds('{"name":"Huda Al-Sandbox"}', "Huda Al-Sandbox")).toBe(true);
  expect(seededSecrets().map((s) => s.value)).toEqual(expect.arrayContaining(["1000000001", "2087654311", "Huda Al-Sandbox"]));
});

test("the server's log of the whole browser-test and fuzz run holds no seeded patient data", () => {
  expect(fs.existsSync(E2E_SERVER_LOG), `${E2E_SERVER_LOG} (written by the webServer command)`).toBe(true);
  const log = fs.readFileSync(E2E_SERVER_LOG, "utf8");
  const lines = log.split("\n");
  const secrets = seededSecrets();
  const hits: string[] = [];
  for (const { kind, value } of secrets) {
    lines.forEach((line, i) => {
      if (holds(line, value)) hits.push(`line ${i + 1}: ${kind} — ${line.replace(value, "«…»").slice(0, 200)}`);
    });
  }
  console.log(`[log-scan] ${lines.length} lines (${(log.length / 1024).toFixed(0)} KiB) scanned for ${secrets.length} seeded values: ${hits.length} hits`);
  expect(lines.length).toBeGreaterThan(10);
  expect(hits).toEqual([]);
});

/*
 * Error-level lines caused by clients (docs/decisions/060): junk a client sends — a cross-origin
 * write, a forged server action, a JSON body posted to the sign-in endpoint, a malformed path —
 * is counted at debug level with a summary line a minute, never an error line. A request-handling
 * error line is one of: an access-log line of a 500 (a 502/503/504 is the platform's or shutdown's
 * state, not a client's doing), an Auth.js error, Next.js' own `⨯` render/action errors and its
 * server-action complaints, or a route's "request … failed" line. Background work (boot, the
 * database, the outbox, the sandbox) is not counted here.
 */
function clientCausedErrorLines(lines: string[]): string[] {
  return lines.filter((line) => {
    if (line.startsWith("{")) {
      try {
        const entry = JSON.parse(line) as { level?: string | number; component?: string; status?: number; msg?: string };
        const level = entry.level === "error" || entry.level === "fatal" || entry.level === 50 || entry.level === 60;
        if (!level) return false;
        if (entry.component === "http") return entry.status === 500 || entry.status === 501;
        return entry.component === "auth";
      } catch {
        return false;
      }
    }
    return /^⨯ |Invalid Server Actions? request|Failed to find Server Action|^\[auth\] |^\[[a-z-]+\] request [0-9a-f-]{36} failed/.test(line.trim());
  });
}

test("the matcher of client-caused error lines finds what it looks for", () => {
  const sample = [
    '{"level":"error","component":"auth","msg":"auth error SyntaxError"}',
    '{"level":"error","component":"http","route":"/eligibility","status":500,"msg":"request"}',
    "⨯ Error: Invalid Server Actions request.",
    '{"level":"error","component":"http","route":"/api/exchange/eligibility/check","status":503,"msg":"request"}',
    '{"level":"info","component":"http","status":403,"msg":"request"}',
    '{"level":"error","component":"boot","msg":"the portal cannot start"}',
    "[junk] refused in the last minute: CrossOrigin=3",
  ];
  expect(clientCausedErrorLines(sample)).toEqual(sample.slice(0, 3));
});

test("no error-level log line of the whole run was caused by a client", () => {
  const lines = fs.readFileSync(E2E_SERVER_LOG, "utf8").split("\n");
  const hits = clientCausedErrorLines(lines);
  const junk = lines.filter((l) => l.includes("[junk] refused in the last minute")).length;
  console.log(`[log-scan] ${lines.length} lines: ${hits.length} client-caused error-level lines; ${junk} junk summary lines`);
  expect(hits.map((l) => l.slice(0, 200))).toEqual([]);
});

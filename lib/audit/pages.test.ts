import { describe, expect, it } from "vitest";
import { codeFiles, readSource } from "@/lib/testing/source-files";

/*
 * Every staff page that audits a PHI access does it through `staffPage` (lib/auth,
 * docs/decisions/078): one audit row per user view, none for a live refresh of it. A page under
 * app/(portal) that writes its own entry — the audit writer itself, or a service's audited read
 * given its own caller — bypasses that rule and fails here.
 */
const pages = () => codeFiles(["app/(portal)"]).filter((path) => /\/page\.tsx$/.test(path));

/** What writing an audit entry on one's own looks like in a page. */
const OWN_AUDIT: [RegExp, string][] = [
  [/import\s*\{[^}]*\baudit\b[^}]*\}\s*from\s*"@\/lib\/audit"/, "imports the audit writer"],
  [/(?<![.\w])audit\s*\(/, "calls audit()"],
  [/\bauditEvents\b/, "touches the audit table"],
  [/\bcallerOf\s*\(/, "makes its own caller for an audited service"],
  [/\baudited\w+\s*\([^)]*?\bawait\b/, "hands an audited service something other than the page's audit writer"],
];

describe("pages audit through staffPage", () => {
  it("finds the portal's pages", () => {
    expect(pages().length).toBeGreaterThan(20);
  });

  it("no page under app/(portal) writes its own audit entry", () => {
    const offences = pages().flatMap((path) => {
      const text = readSource(path);
      return OWN_AUDIT.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${path}: ${what}`);
    });
    expect(offences).toEqual([]);
  });

  it("every page that audits is a staffPage and audits only with its context's writer", () => {
    const auditing = pages().filter((path) => /\.audit\s*\(|\baudited\w+\s*\(/.test(readSource(path)));
    expect(auditing.length).toBeGreaterThanOrEqual(17);
    const outside = auditing.filter((path) => !/export default staffPage\(/.test(readSource(path)));
    expect(outside).toEqual([]);
    const otherWriters = auditing.filter((path) => {
      const text = readSource(path);
      const calls = [...text.matchAll(/\b(\w+)\.audit\b/g)].map((m) => m[1]);
      const handed = [...text.matchAll(/\baudited\w+\([^,]+,\s*([\w.]+)/g)].map((m) => m[1]);
      return calls.some((c) => c !== "staff") || handed.some((h) => h !== "staff.audit");
    });
    expect(otherWriters).toEqual([]);
  });
});

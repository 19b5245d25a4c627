import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { DEMO, expect, signIn, test } from "./fixtures";

/*
 * Accessibility (issue 19): axe-core over every portal page, in English and in Arabic, with the
 * role that may open it: 0 violations of any impact. Detail pages use the first record of their
 * list (the demo data and earlier specs provide them; a page without a record is reported as
 * skipped in the table, never silently passed). The table is written to test-results/axe.md.
 */

type Role = keyof typeof DEMO;
interface Target {
  path: string;
  role: Role;
  /** A list page whose first link of this pattern is the detail page to check. */
  from?: { list: string; link: RegExp };
}

const PAGES: Target[] = [
  { path: "/patients", role: "frontDesk" },
  { path: "/patients/new", role: "frontDesk" },
  { path: "/patients/[id]", role: "frontDesk", from: { list: "/patients", link: /^\/patients\/[0-9a-f-]{36}$/ } },
  { path: "/eligibility", role: "frontDesk" },
  { path: "/eligibility/[id]", role: "frontDesk", from: { list: "/eligibility", link: /^\/eligibility\/[0-9a-f-]{36}$/ } },
  { path: "/authorizations", role: "frontDesk" },
  { path: "/authorizations/new", role: "frontDesk" },
  { path: "/authorizations/[id]", role: "frontDesk", from: { list: "/authorizations", link: /^\/authorizations\/[0-9a-f-]{36}$/ } },
  { path: "/claims", role: "billing" },
  { path: "/claims/new", role: "billing" },
  { path: "/claims/[id]", role: "billing", from: { list: "/claims", link: /^\/claims\/[0-9a-f-]{36}$/ } },
  { path: "/claims/work-queue", role: "billing" },
  { path: "/claims/reconcile", role: "billing" },
  { path: "/dashboard", role: "manager" },
  { path: "/dashboard/live", role: "manager" },
  { path: "/settings", role: "admin" },
  { path: "/settings/api-access", role: "admin" },
  { path: "/settings/gateway-tokens", role: "admin" },
  { path: "/settings/organization-keys", role: "admin" },
  { path: "/settings/system-status", role: "admin" },
  { path: "/audit", role: "admin" },
];

const results: { page: string; lang: string; violations: number | "skipped"; detail: string }[] = [];

async function setLanguage(page: Page, lang: "en" | "ar") {
  const url = new URL(page.url());
  await page.context().addCookies([{ name: "cx_locale", value: lang, domain: url.hostname, path: "/" }]);
}

async function resolve(page: Page, target: Target): Promise<string | undefined> {
  if (!target.from) return target.path;
  await page.goto(target.from.list);
  const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => target.from!.link.test(h.split("?")[0]!));
}

test.describe.configure({ mode: "serial" });

for (const role of [...new Set(PAGES.map((p) => p.role))]) {
  test(`axe: every page of ${role}, in English and Arabic, has no violations`, async ({ page }) => {
    test.setTimeout(300_000);
    await signIn(page, DEMO[role]);
    const failures: string[] = [];
    for (const target of PAGES.filter((p) => p.role === role)) {
      for (const lang of ["en", "ar"] as const) {
        await setLanguage(page, lang);
        const path = await resolve(page, target);
        if (!path) {
          results.push({ page: target.path, lang, violations: "skipped", detail: "no record to open" });
          continue;
        }
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await page.waitForLoadState("networkidle").catch(() => undefined);
        const { violations } = await new AxeBuilder({ page }).analyze();
        const detail = violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`).join("; ");
        results.push({ page: target.path, lang, violations: violations.length, detail });
        if (violations.length) failures.push(`${target.path} [${lang}]: ${detail}`);
      }
    }
    await setLanguage(page, "en");
    expect(failures).toEqual([]);
  });
}

test.afterAll(() => {
  const lines = ["| page | language | violations | detail |", "|---|---|---|---|", ...results.map((r) => `| ${r.page} | ${r.lang} | ${r.violations} | ${r.detail} |`)];
  fs.mkdirSync("test-results", { recursive: true });
  fs.writeFileSync("test-results/axe.md", `${lines.join("\n")}\n`);
});

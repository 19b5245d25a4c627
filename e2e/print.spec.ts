import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, fillAuthorizationRequest, inArabic, platformIdOf, test } from "./fixtures";

/**
 * Printing (decision 123): an approved authorization, a claim with its decision, a remittance
 * and an eligibility result, each with a Print button; on paper the clinic's name, the date
 * printed and "page X of Y" (CSS page-margin boxes, components/print), without the menu or any
 * button, in English and Arabic. Each is printed to PDF by Chromium (page.pdf, the same engine as
 * the browser's Print); with poppler's tools installed the PDF's text is read back and its first
 * page drawn as PNG to look at. The favicon is asked for by every page visited (decision 123).
 */
const OUT = process.env.E2E_PRINT_DIR ?? "/tmp/print-shots";
const has = (tool: string) => {
  try {
    execFileSync("which", [tool], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Picks a patient in the eligibility form with the keyboard (the form's own combobox, not a select's options). */
async function pickPatient(page: Page, query: string, label: RegExp) {
  const box = page.getByRole("combobox", { name: label });
  await box.focus();
  await page.keyboard.type(query);
  await expect(page.getByRole("listbox").getByRole("option").first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("selected-patient")).toBeVisible();
}

async function iconServed(page: Page) {
  const href = await page.locator('head link[rel="icon"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  const res = await page.request.get(new URL(href!, page.url()).toString());
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^image\//);
}

/** Prints the page to PDF and checks the paper: the frame's words, page numbers, no chrome. */
async function printed(page: Page, name: string, words: { clinic: RegExp; printed: RegExp; printedPdf: RegExp; page: RegExp; chrome: RegExp }) {
  await expect(page.getByTestId("print-button")).toBeVisible();
  await iconServed(page);
  // What the print shows, read in the page's print media: the header of the paper, no menu, no buttons.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("print-header")).toBeVisible();
  await expect(page.getByTestId("print-header")).toContainText(words.clinic);
  await expect(page.getByTestId("print-date")).toHaveText(words.printed);
  await expect(page.getByRole("navigation", { name: /main|الرئيسية/i })).toBeHidden();
  await expect(page.getByTestId("print-button")).toBeHidden();
  // Nothing live or still to fill in on paper: the live indicator, an estimate not yet run (decision 123).
  for (const live of await page.getByTestId("live-state").all()) await expect(live).toBeHidden();
  await expect(page.getByTestId("visit-estimate").filter({ hasNot: page.getByTestId("estimate-table") })).toBeHidden();
  await page.screenshot({ path: path.join(OUT, `${name}-print-media.png`), fullPage: true });
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.pdf`);
  // page.pdf prints in the emulated media: print, as a clerk's Print does (screen media would print the menu).
  fs.writeFileSync(file, await page.pdf({ preferCSSPageSize: true, printBackground: true }));
  await page.emulateMedia({ media: "screen" });
  expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
  if (has("pdftotext")) {
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    const pages = text.split("\f").filter((p) => p.trim());
    expect(pages.length).toBeGreaterThan(0);
    // Every sheet carries the clinic's name and its number; the first also the date printed.
    for (const sheet of pages) {
      expect(sheet).toMatch(words.clinic);
      expect(sheet).toMatch(words.page);
    }
    // The date printed is in a margin box of every sheet (and in the first sheet's header).
    expect(pages[0]).toMatch(words.printedPdf);
    expect(text).not.toMatch(words.chrome);
  }
  if (has("pdftoppm")) execFileSync("pdftoppm", ["-png", "-r", "70", "-f", "1", "-l", "2", file, path.join(OUT, name)]);
}

const EN = { clinic: /Clinic Exchange Demo Clinic/, printed: /^Printed \d{1,2} \w{3,4} \d{4}, \d{1,2}:\d{2}$/, printedPdf: /Printed \d{1,2} \w{3,4} \d{4}, \d{1,2}:\d{2}/, page: /Page 1 of \d|Page \d of \d/, chrome: /Sign out|Change my password|Live updates on|Reconnecting…|Estimate for this visit/ };
const AR = { clinic: /Clinic Exchange Demo Clinic/, printed: /^طُبع في .*\d{4}.*\d{1,2}:\d{2}/, printedPdf: /\d{4}/, page: /صفحة|\d من \d/, chrome: /تسجيل الخروج|التحديث المباشر يعمل|جارٍ إعادة الاتصال|تقدير تكلفة هذه الزيارة/ };

test.describe("print views (decision 123)", () => {
  test.setTimeout(300_000);

  test("an eligibility result, an approved authorization, a claim with its decision and a remittance print with the clinic, the date and page numbers", async ({ page, signInAs, newClaim, orgClient, sandbox }) => {
    await signInAs(["front_desk", "billing"]);

    // 1. The eligibility result.
    await page.goto("/eligibility");
    await pickPatient(page, "1000000001", /^patient$/i);
    await iconServed(page);
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force");
    // Item 4 at a glance: the button beside the patient and coverage, in both languages and widths.
    await page.screenshot({ path: path.join(OUT, "eligibility-form-en-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(OUT, "eligibility-form-en-390.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("link", { name: "Open the printable result" }).click();
    await expect(page).toHaveURL(/\/eligibility\/[0-9a-f-]{36}$/);
    await printed(page, "eligibility-en", EN);
    await inArabic(page, async () => {
      await printed(page, "eligibility-ar", AR);
    });

    // 2. An approved authorization.
    await page.goto("/authorizations/new");
    await fillAuthorizationRequest(page);
    await page.getByRole("button", { name: "Submit authorization request" }).click();
    await page.waitForURL(/\/authorizations\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 45_000 });
    await printed(page, "authorization-en", EN);
    await inArabic(page, async () => {
      await printed(page, "authorization-ar", AR);
    });

    // 3. A claim with its decision.
    const claim = await newClaim();
    await page.goto(`/claims/${claim.id}`);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /complete|partial/, { timeout: 45_000 });
    await printed(page, "claim-en", EN);
    await inArabic(page, async () => {
      await printed(page, "claim-ar", AR);
    });

    // 4. A remittance paying that claim.
    const platformId = await platformIdOf(orgClient, claim.id);
    const remittance = (await sandbox.call("POST", "/_admin/remittances", { claims: [{ id: platformId }] })) as { paymentIdentifier: { value: string } };
    await page.goto("/payments");
    const row = page.locator('[data-testid="remittance-row"]', { hasText: remittance.paymentIdentifier.value });
    await expect(async () => {
      await page.reload();
      await expect(row).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 45_000 });
    await row.getByRole("link").click();
    await page.waitForURL(/\/payments\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("remittance-line")).toHaveCount(1);
    await printed(page, "remittance-en", EN);
    await inArabic(page, async () => {
      await printed(page, "remittance-ar", AR);
    });
  });

  test("the eligibility button and its errors sit beside the patient and coverage, in Arabic too (decision 123)", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await page.goto("/eligibility");
    await inArabic(page, async () => {
      await pickPatient(page, "1000000001", /^المريض$/);
      await page.getByLabel("تاريخ الخدمة").fill("");
      await page.getByRole("button", { name: "تحقق من الأهلية" }).click();
      // The form's error shows under the button, which stays above the options.
      await expect(page.getByTestId("eligibility-actions").getByRole("alert")).toBeVisible();
      const [button, options] = [await page.getByTestId("eligibility-actions").boundingBox(), await page.getByTestId("eligibility-options").boundingBox()];
      expect(button!.y + button!.height).toBeLessThanOrEqual(options!.y + 1);
      expect(button!.y).toBeLessThan(900);
      await page.screenshot({ path: path.join(OUT, "eligibility-error-ar-1280.png") });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(OUT, "eligibility-error-ar-390.png"), fullPage: true });
    });
  });
});

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { clinicDay, expect, inArabic, screenshot, test } from "./fixtures";

/*
 * Eligibility ahead of the visit (docs/decisions/044): a front desk uploads a CSV with mistakes, sees the
 * bad rows by line, the run checks the good ones through the sandbox with live progress, and the
 * morning worklist shows each visit's verdict in words (English and Arabic) with a link to the
 * eligibility result and a one-click prior authorization pre-filled with the planned services.
 * Screenshots for the closing note go to docs/screenshots/21/.
 */
const SHOTS = "docs/screenshots/21";
const tomorrow = clinicDay(1);
const CSV = [
  "national_id,date,insurer,services",
  `1000000001,${tomorrow},payer-rimal,99213`,
  `1000000001,${tomorrow},payer-rimal,92004`,
  `1000000001,${tomorrow},,71046`,
  `1000000002,${tomorrow},payer-wadi,99213`,
  `1234567890,${tomorrow},,99213`,
  `1048573628,2026-02-30,payer-nakheel,85025`,
  `2087654311,${tomorrow},payer-unknown,99213`,
  `1122334459,${tomorrow},,99999`,
].join("\n");

async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
}

test("upload → bad rows by line → live run → worklist in words (en + ar), print, links", async ({ page, signInAs }) => {
  test.setTimeout(180_000);
  await signInAs("front_desk");
  await page.goto("/visits");
  await expect(page.getByRole("heading", { name: "Morning worklist" })).toBeVisible();
  await axe(page);

  await page.goto("/visits/new");
  await axe(page);
  await page.getByLabel("List name").fill(`Clinic ${tomorrow}`);
  await page.getByLabel("CSV file").setInputFiles({ name: "tomorrow.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await page.getByLabel("Start now").check();
  await page.getByRole("button", { name: "Upload the list" }).click();
  await page.waitForURL(/\/visits\/lists\/[0-9a-f-]{36}$/);
  const listUrl = page.url();

  // The bad-rows report: by line, with the reason; the good rows go on.
  const bad = page.getByTestId("bad-rows");
  await expect(bad.getByTestId("bad-row")).toHaveCount(4);
  await expect(bad.locator('[data-line="6"]')).toContainText("check digit");
  await expect(bad.locator('[data-line="7"]')).toContainText("not a real date");
  await expect(bad.locator('[data-line="8"]')).toContainText("Unknown insurer");
  await expect(bad.locator('[data-line="9"]')).toContainText("Unknown service code");

  // Live progress until the run is done (SSE `visits.run` events).
  const run = page.getByTestId("visit-run");
  await expect(run).toHaveAttribute("data-status", "done", { timeout: 90_000 });
  await expect(run.getByTestId("visit-run-progress")).toContainText("4 of 4 checked");
  await axe(page);
  await screenshot(page, SHOTS, "bad-rows-en.png");

  await page.getByRole("link", { name: "Open in the worklist" }).click();
  await page.waitForURL(/\/visits\?list=/);
  const rows = page.getByTestId("worklist-row");
  await expect(rows).toHaveCount(4);
  // Most serious first, in words.
  await expect(page.locator('[data-testid="worklist-row"][data-verdict="not_in_force"]')).toContainText("Not in force");
  await expect(page.locator('[data-testid="worklist-row"][data-verdict="benefit_exhausted"]')).toContainText("Benefit exhausted");
  await expect(page.locator('[data-testid="worklist-row"][data-verdict="benefit_low"]')).toContainText("Benefit nearly exhausted");
  await expect(page.locator('[data-testid="worklist-row"][data-verdict="in_force"]')).toContainText("In force");
  await axe(page);
  await screenshot(page, SHOTS, "worklist-en.png");

  // Filters: only problems.
  await page.getByLabel("Verdict").selectOption("problems");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(3);

  // Print: the actions column and the filters are not printed.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Apply" })).toBeHidden();
  await screenshot(page, SHOTS, "worklist-print-en.png");
  await page.emulateMedia({ media: "screen" });

  await inArabic(page, async () => {
    await expect(page.locator('[data-testid="worklist-row"][data-verdict="benefit_exhausted"]')).toContainText("استُنفدت المنفعة");
    await expect(page.locator('[data-testid="worklist-row"][data-verdict="not_in_force"]')).toContainText("غير سارية");
    await axe(page);
    await screenshot(page, SHOTS, "worklist-ar.png");
    await page.goto(listUrl);
    await expect(page.getByTestId("bad-rows")).toContainText("رقم التحقق");
    await axe(page);
    await screenshot(page, SHOTS, "bad-rows-ar.png");
    await page.goto("/visits?verdict=problems");
  });

  // One click: the eligibility result, and a new prior authorization with the planned service.
  const exhausted = page.locator('[data-testid="worklist-row"][data-verdict="benefit_exhausted"]').first();
  await exhausted.getByRole("link", { name: "Eligibility result" }).click();
  await page.waitForURL(/\/eligibility\/[0-9a-f-]{36}$/);
  await page.goBack();
  await page.locator('[data-testid="worklist-row"][data-verdict="benefit_exhausted"]').first().getByRole("button", { name: "New prior authorization" }).click();
  await page.waitForURL(/\/authorizations\/new\?draft=/);
  await expect(page.getByText("92004").first()).toBeVisible();
});

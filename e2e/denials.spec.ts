import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";

/*
 * Denials (docs/decisions/076, 077): a claim billed above the payer's price list comes back cut;
 * a manager finds its reason among the top fixable reasons on the dashboard, with the money at
 * stake, sees that a scrubber rule would have caught it, and follows the link to the claims list
 * filtered to the claims cut for that reason.
 * Screenshots of the denial section in English and Arabic go to docs/screenshots/31/.
 */

const SHOTS = process.env.E2E_DENIAL_SHOTS_DIR ?? path.join(process.cwd(), "docs/screenshots/31");

test("a manager finds the top fixable reason and follows it to the claims", async ({ page, signInAs, newClaim }) => {
  test.setTimeout(120_000);
  // 99213 at 5,000 SAR: the sandbox pays its price-list rate and gives the reason price-list (a billing error, fixable).
  const claim = await newClaim({ nationalId: "1000000001", unitPrice: 5000 });
  // An office manager who also bills: the reasons link to the claims list only for those who may open it.
  await signInAs(["manager", "billing"]);
  await expect
    .poll(
      async () => {
        await page.goto(`/claims/${claim.id}`);
        return (await page.getByTestId("overall-decision").count()) > 0;
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe(true);

  await page.goto("/dashboard");
  const section = page.getByTestId("dashboard-denials");
  await expect(section.getByRole("heading", { name: "Denials" })).toBeVisible();
  // Families: money rejected and cut per family; billing error is among them.
  await expect(page.getByTestId("dashboard-table-denialFamilies")).toContainText("Billing error");
  const fixable = page.getByTestId("dashboard-table-denialFixable");
  const row = fixable.locator("tr").filter({ hasText: "Reduced to the price list" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("price-list");
  await expect(row).toContainText("Billing error");
  // The money at stake, in the last column (as data): at least this claim's — 5,000.00 submitted, the
  // price list's 250.00 eligible — plus that of the other journeys' claims reduced the same way.
  const stake = Number(await row.locator("td").last().getAttribute("data-value"));
  expect(stake).toBeGreaterThanOrEqual(4750);
  // The scrubber's contract-price rule checks this reason: its money counts as caught.
  const caught = page.getByTestId("dashboard-table-denialScrubber").locator("tr").filter({ hasText: "A scrubber rule checks this reason" });
  await expect(caught).toHaveCount(1);
  expect(Number(await caught.locator("td").nth(2).getAttribute("data-value"))).toBeGreaterThanOrEqual(4750);
  // The practitioner breakdown says where its rows come from.
  await expect(page.getByTestId("denial-practitioner-note")).toBeVisible();
  // CSV of the top fixable reasons: data, money as plain decimals with a currency column.
  const csv = await page.request.get((await page.getByTestId("dashboard-csv-denialFixable").getAttribute("href"))!);
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text).toMatch(/Reduced to the price list,price-list,Billing error,\d+,\d+\.\d{2},\d+\.\d{2},\d+\.\d{2},SAR/);

  fs.mkdirSync(SHOTS, { recursive: true });
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: path.join(SHOTS, "dashboard-denials-en.png") });
  const url = new URL(page.url());
  await page.context().addCookies([{ name: "cx_locale", value: "ar", domain: url.hostname, path: "/" }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByTestId("dashboard-denials").getByRole("heading", { name: "الرفض" })).toBeVisible();
  await expect(page.getByTestId("dashboard-table-denialFixable")).toContainText("خُفِّض إلى سعر القائمة");
  await expect(page.getByTestId("dashboard-table-denialFamilies")).toContainText("أخطاء الفوترة");
  await expect(page.getByTestId("dashboard-table-denialScrubber")).toContainText("قاعدة في المدقق تفحص هذا السبب");
  await page.getByTestId("dashboard-denials").screenshot({ path: path.join(SHOTS, "dashboard-denials-ar.png") });
  await page.context().addCookies([{ name: "cx_locale", value: "en", domain: url.hostname, path: "/" }]);
  await page.reload();

  // Follow the reason to its claims: the list filtered by it, our claim among them.
  await page.getByTestId("dashboard-table-denialFixable").locator("tr").filter({ hasText: "Reduced to the price list" }).getByTestId("dashboard-row-link").click();
  await expect(page).toHaveURL(/\/claims\?reason=price-list/);
  await expect(page.getByTestId("claims-reason-filter")).toContainText("Reduced to the price list");
  await expect(page.locator(`a[href="/claims/${claim.id}"]`).first()).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, "claims-filtered-by-reason-en.png"), fullPage: true });
});

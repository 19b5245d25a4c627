import fs from "node:fs";
import path from "node:path";
import { createUser, expect, pdfBytes, signIn, test } from "./fixtures";

/*
 * Winning denials back (docs/decisions/080, 081): a claim billed above the payer's price list comes
 * back cut; a manager finds its reason at the top of the fixable reasons on the dashboard; a biller
 * finds the claim in the ranked work queue, takes it, notes it and appeals it with a justification
 * and a document; the sandbox overturns the cut line and the claim's timeline shows the appeal to
 * its decision. Screenshots (English and Arabic, desktop) go to docs/screenshots/31/.
 */

const SHOTS = process.env.E2E_DENIAL_SHOTS_DIR ?? path.join(process.cwd(), "docs/screenshots/31");

test("a manager finds the top reason and a biller appeals it to its decision", async ({ page, browser, signInAs, newClaim }) => {
  test.setTimeout(180_000);
  // 99213 at 400 SAR: the sandbox pays its price-list rate, reason price-list (billing error, fixable).
  // A modest amount: the overturned line is paid from Patient One's consultation benefit, which the
  // payments, estimate and visit-list journeys after this one still need.
  const claim = await newClaim({ nationalId: "1000000001", unitPrice: 400 });
  // The manager, in a session of their own.
  const managerContext = await browser.newContext();
  try {
    const dashboard = await managerContext.newPage();
    const manager = createUser(["manager"]);
    await signIn(dashboard, manager.email, manager.password);
    await expect
      .poll(
        async () => {
          await dashboard.goto("/dashboard");
          return dashboard.getByTestId("dashboard-table-denialFixable").locator("tr").filter({ hasText: "Reduced to the price list" }).count();
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toBe(1);
    // Among the top fixable reasons (most money at stake first), with its money at stake.
    const top = dashboard.getByTestId("dashboard-table-denialFixable").locator("tr").filter({ hasText: "Reduced to the price list" });
    expect(Number(await top.locator("td").last().getAttribute("data-value"))).toBeGreaterThan(0);
  } finally {
    await managerContext.close();
  }

  // The biller: the claim is in the ranked work queue, to be appealed, with its money at stake and deadline.
  const biller = await signInAs("billing");
  await page.goto("/claims/work-queue");
  const item = page.locator(`[data-testid="work-item"][data-id="${claim.id}"]`);
  await expect(item).toHaveAttribute("data-action", "appeal");
  await expect(item.getByTestId("deadline-badge")).toHaveAttribute("data-kind", "appeal");
  await expect(item).toContainText("Reduced to the price list");
  await expect(item.getByTestId("work-at-stake")).toContainText("SAR");
  // Take it (bulk assignment of the one selected) and leave a note.
  await item.getByTestId("work-select").check();
  await page.getByTestId("work-assignee").selectOption({ label: biller.email.split("@")[0]! });
  await page.getByTestId("work-assign").click();
  await expect(page.getByTestId("work-bulk")).toContainText("1 claim updated.");
  await expect(item.getByTestId("work-assigned")).toContainText(biller.email.split("@")[0]!);
  await item.getByTestId("work-note-input").fill("Contract rate changed in October; appeal with the signed addendum.");
  await item.getByTestId("work-note-save").click();
  await expect(item).toContainText("Contract rate changed in October");
  await page.getByTestId("work-filter-mine").click();
  await expect(page.locator(`[data-testid="work-item"][data-id="${claim.id}"]`)).toBeVisible();
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, "work-queue-en.png"), fullPage: true });
  // The queue as CSV data.
  const csv = await page.request.get("/claims/work-queue/export?assignee=mine");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toMatch(new RegExp(`\\r\\n1,${claim.id},partial,appeal,[^,]*,\\d+\\.\\d{2},SAR,appeal,\\d{4}-\\d{2}-\\d{2},\\d+,price-list,BE,`));

  // The appeal: the cut line, a justification too short first (a field error), then a real one and a document.
  await page.locator(`[data-testid="work-item"][data-id="${claim.id}"]`).getByTestId("work-appeal").click();
  await expect(page.getByTestId("appeal-form")).toBeVisible();
  await expect(page.getByTestId("appeal-line")).toHaveCount(1);
  await page.getByTestId("appeal-justification").fill("Too short");
  await page.getByTestId("appeal-submit").click();
  await expect(page.getByTestId("appeal-justification")).toHaveAttribute("aria-invalid", "true");
  await page.getByTestId("appeal-justification").fill("The contracted rate for 99213 was raised by the signed addendum of October; the addendum is attached.");
  await page.getByTestId("file-input").setInputFiles({ name: "contract addendum.pdf", mimeType: "application/pdf", buffer: pdfBytes("Contract addendum") });
  await expect(page.getByTestId("attachment-item")).toHaveCount(1);
  await page.getByTestId("appeal-submit").click();
  await expect(page).toHaveURL(new RegExp(`/claims/${claim.id}\\?appealed=`));

  // The original's timeline shows the appeal filed and, once the payer decides, the appeal's decision.
  await expect(page.getByTestId("timeline")).toContainText("Appeal filed");
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("appeals").locator("li").first().getAttribute("data-status");
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe("complete");
  const timeline = page.getByTestId("timeline");
  await expect(timeline.locator('li[data-linked="appeal"]').last()).toContainText("Appeal:");
  // Appealed, no longer in the queue.
  await page.screenshot({ path: path.join(SHOTS, "appeal-timeline-en.png"), fullPage: true });
  const url = new URL(page.url());
  await page.context().addCookies([{ name: "cx_locale", value: "ar", domain: url.hostname, path: "/" }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByTestId("timeline")).toContainText("قُدّم اعتراض");
  await expect(page.getByTestId("timeline")).toContainText("الاعتراض:");
  await page.screenshot({ path: path.join(SHOTS, "appeal-timeline-ar.png"), fullPage: true });
  await page.goto("/claims/work-queue");
  await page.screenshot({ path: path.join(SHOTS, "work-queue-ar.png"), fullPage: true });
  await page.context().addCookies([{ name: "cx_locale", value: "en", domain: url.hostname, path: "/" }]);
  await page.goto("/claims/work-queue");
  await expect(page.locator(`[data-testid="work-item"][data-id="${claim.id}"]`)).toHaveCount(0);
});

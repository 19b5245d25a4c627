import type { Page } from "@playwright/test";
import { DEMO, expect, fillCareSetting, inArabic, pickCode, pickPatient, screenshot, signIn, test } from "./fixtures";

/*
 * Catching rejections before they leave (docs/decisions/089–091): the front desk's estimate for a
 * visit, a claim the scrubber blocks with its fix shown, and billing's override, audited — in
 * English and Arabic.
 */
const SHOTS = "docs/screenshots/30";

async function submitButton(page: Page) {
  return page.getByTestId("claim-form").locator('button[type="submit"]');
}

test.describe("scrubber and estimate", () => {
  test("front desk: the estimate for a visit — shares, VAT, what needs an authorization; printable, in Arabic", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await page.goto("/eligibility");
    const box = page.getByRole("combobox", { name: /^patient$/i });
    await box.focus();
    await page.keyboard.type("2087654311");
    await expect(page.getByRole("option").first()).toBeVisible();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force");
    await page.getByRole("link", { name: "Open the printable result" }).click();
    await expect(page).toHaveURL(/\/eligibility\/[0-9a-f-]{36}$/);

    const estimate = async (label: string) => {
      const picker = page.getByTestId("estimate-services").getByRole("combobox", { name: label });
      await pickCode(page, picker, "99214");
      await pickCode(page, picker, "72148");
      await page.getByTestId("estimate-run").click();
      await expect(page.getByTestId("estimate-line")).toHaveCount(2);
    };
    await estimate("Planned services");
    // The resident's Rimal plan: 10 % copay on a 350.00 consultation = 35.00, plus 15 % VAT on it.
    const consult = page.locator('[data-testid="estimate-line"][data-code="99214"]');
    await expect(consult.getByTestId("estimate-patient-total")).toHaveText("SAR 40.25");
    await expect(page.locator('[data-testid="estimate-line"][data-code="72148"]').getByTestId("estimate-auth")).toHaveText("Needs prior authorization");
    await expect(page.getByTestId("visit-estimate")).toContainText("VAT 15 % (non-Saudi patient).");
    await screenshot(page, SHOTS, "estimate-en.png");
    await inArabic(page, async () => {
      await estimate("الخدمات المخطط لها");
      await expect(page.getByTestId("visit-estimate")).toContainText("تحتاج موافقة مسبقة");
      await screenshot(page, SHOTS, "estimate-ar.png");
    });
  });

  test("a claim the payer would reject is blocked with its fix; billing overrides with a reason, audited", async ({ page, signInAs, browser }) => {
    await signInAs("billing");
    await page.goto("/claims/new");
    await pickPatient(page, "1000000001");
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "M54.5");
    await fillCareSetting(page, "Low back pain for a month");
    await pickCode(page, page.getByRole("combobox", { name: "Service of line 1" }), "72148");
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill("2000");
    await (await submitButton(page)).click();

    const finding = page.getByTestId("scrub-finding-authorization-missing");
    await expect(finding).toContainText("AD · AD-P-1");
    await expect(finding).toContainText("Line 1 (72148) needs a prior authorization");
    await expect(finding).toContainText("Request the authorization first");
    await expect(page.getByTestId("scrub-findings")).toContainText("Nothing was sent.");
    // Nothing was sent: the form is kept as a draft (its URL names it).
    await expect(page).toHaveURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
    await screenshot(page, SHOTS, "blocked-en.png");
    await inArabic(page, async () => {
      await (await submitButton(page)).click();
      await expect(page.getByTestId("scrub-finding-authorization-missing")).toContainText("يحتاج موافقة مسبقة");
      await expect(page.getByTestId("scrub-override")).toContainText("سبب التجاوز");
      await screenshot(page, SHOTS, "blocked-ar.png");
    });

    // The override needs a reason; with one it is sent and audited.
    await (await submitButton(page)).click();
    await page.getByTestId("scrub-override-send").click();
    await expect(page.getByTestId("scrub-override")).toContainText("Give a reason for the override");
    await page.getByTestId("scrub-override-reason").fill("Payer approved by phone, reference PH-30");
    await page.getByTestId("scrub-override-send").click();
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    const claimId = new URL(page.url()).searchParams.get("submitted")!;

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    try {
      await signIn(admin, DEMO.admin);
      await admin.goto("/audit?action=claim.scrub_override");
      const row = admin.locator("tbody tr").filter({ hasText: "claim.scrub_override" }).filter({ hasText: "Payer approved by phone, reference PH-30" });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(claimId);
    } finally {
      await adminContext.close();
    }
  });
});

import type { Page } from "@playwright/test";
import { MESSAGING, SERVICES, expect, fillCareSetting, inArabic, noteFirstLoad, pdfBytes, pickCode, pickPatient, pickService, sendClaimForm, shootBothWidths, test } from "./fixtures";

/**
 * Information sent to the payer unasked (docs/decisions/115; guide v2.7 7.4.2.3), in the messaging
 * protocol against the strict sandbox: a claim priced above the payer's contract is partly
 * approved; billing sends the payer a report about the cut line from the claim's page; the payer
 * acknowledges it and reissues its decision, approved in full — all on the claim's timeline.
 * Screenshots (English and Arabic, 1280 and 390 px) go to test-results/43/.
 */
const SHOTS = "test-results/43";

const firstLoad = (page: Page, url: string, label: string, budgeted = true) => noteFirstLoad(page, url, label, SHOTS, budgeted);
const shoot = (page: Page, name: string) => shootBothWidths(page, SHOTS, name);

test.describe("sending the payer information (docs/decisions/115)", () => {
  test.skip(!MESSAGING, "the journey runs in the messaging protocol against the strict sandbox");

  test("a partly approved claim: a report sent about the cut line, acknowledged, the decision reissued in full", async ({ page, signInAs }) => {
    test.setTimeout(240_000);
    await signInAs("billing");
    await page.goto("/claims/new");
    await pickPatient(page, "1000000001");
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "m545");
    await fillCareSetting(page);
    await pickService(page, 1, SERVICES.visit);
    await page.getByLabel("Quantity of line 1").fill("1");
    // Above the payer's contract price: the line is cut (partly approved).
    await page.getByLabel("Unit price of line 1").fill(String(Number(SERVICES.visit.price) * 2));
    await sendClaimForm(page);
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    const claimId = new URL(page.url()).searchParams.get("submitted")!;
    await page.goto(`/claims/${claimId}`);
    await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", "partial", { timeout: 90_000 });

    // The work queue offers it beside the appeal.
    await page.goto("/claims/work-queue");
    await expect(page.locator(`a[href="/claims/${claimId}/evidence"]`)).toBeVisible({ timeout: 30_000 });

    // From the claim's page: the form, an empty message refused in words, then text and a report.
    await page.goto(`/claims/${claimId}`);
    await page.getByTestId("send-evidence").click();
    await page.waitForURL(new RegExp(`/claims/${claimId}/evidence$`));
    await page.getByTestId("evidence-submit").click();
    await expect(page.getByText("Write a message or attach at least one document.")).toBeVisible();
    await inArabic(page, async () => {
      await expect(page.getByTestId("evidence-form")).toContainText("رسالة إلى شركة التأمين");
      await shoot(page, "evidence-form-ar");
    });
    await page.getByTestId("evidence-line").first().check();
    await page.getByTestId("evidence-text").fill("The consultation took twice as long: the report of the specialist is attached.");
    await page.locator('input[type="file"]').setInputFiles({ name: "specialist-report.pdf", mimeType: "application/pdf", buffer: pdfBytes("Specialist report") });
    await expect(page.getByText("specialist-report.pdf").first()).toBeVisible({ timeout: 15_000 });
    await shoot(page, "evidence-form-en");
    await page.getByTestId("evidence-submit").click();
    await page.waitForURL(new RegExp(`/claims/${claimId}\\?evidence=[0-9a-f-]{36}$`));

    // Sent, acknowledged by the payer, and the decision reissued — all on the timeline.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("evidence-row").first()).toHaveAttribute("data-status", "acknowledged", { timeout: 2_000 });
      await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", "complete", { timeout: 2_000 });
    }).toPass({ timeout: 90_000 });
    const timeline = page.getByTestId("timeline");
    await expect(timeline).toContainText("Information sent to the payer");
    await expect(timeline).toContainText("The payer acknowledged the information sent");
    await shoot(page, "evidence-reissued-en");
    await inArabic(page, async () => {
      await expect(page.getByTestId("timeline")).toContainText("أُرسلت معلومات إلى شركة التأمين");
      await expect(page.getByTestId("evidence-section")).toContainText("أقرّت شركة التأمين بالاستلام");
      await shoot(page, "evidence-reissued-ar");
    });

    // First-load JavaScript of the pages this changed.
    await firstLoad(page, `/claims/${claimId}`, "/claims/[id] (with evidence)");
    await firstLoad(page, `/claims/${claimId}/evidence`, "/claims/[id]/evidence");
    await firstLoad(page, "/claims/work-queue", "/claims/work-queue");
  });
});

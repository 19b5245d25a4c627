import { randomUUID } from "node:crypto";
import { expect, inArabic, MESSAGING, screenshot, test } from "./fixtures";

/**
 * Decision 096: what the exchange sends and nothing matches is kept and shown to billing on "Received,
 * not matched" — a payer's decision for a claim not known here, and an unreadable message — then
 * dismissed with a reason. Messaging only (the poll is what delivers them).
 */
test.describe("received, not matched", () => {
  test.skip(!MESSAGING, "the messages arrive by poll (messaging protocol)");

  test("billing: an unmatched decision and an unreadable message appear, are described, and are dismissed with a reason", async ({ page, signInAs, sandbox }) => {
    const tag = randomUUID().slice(0, 8);
    const stranger = {
      resourceType: "ClaimResponse",
      id: randomUUID(),
      status: "active",
      type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "professional" }] },
      use: "claim",
      patient: { identifier: { value: "1000000001" }, display: "Demo patient" },
      created: new Date().toISOString(),
      insurer: { identifier: { value: "INS-FOREIGN" }, display: "Another payer" },
      request: { identifier: { system: "https://elsewhere.example/claim", value: `not-ours-${tag}` } },
      outcome: "complete",
      disposition: `Approved elsewhere ${tag}`,
      total: [{ category: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/adjudication", code: "benefit" }] }, amount: { value: 414, currency: "SAR" } }],
    };
    await sandbox.call("POST", "/_admin/mail", { event: "claim-response", resource: stranger });
    await sandbox.call("POST", "/_admin/mail", { event: "claim-response", raw: { resourceType: "Bundle", id: `bad-${tag}`, type: "message", timestamp: 42, entry: [] } });

    await signInAs("billing");
    await page.goto("/inbox");
    const decision = page.getByTestId("inbox-message").filter({ hasText: `not-ours-${tag}` });
    await expect(async () => {
      await page.reload();
      await expect(decision).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(decision).toContainText("Not matched");
    await expect(decision.getByTestId("inbox-says")).toContainText("414.00 SAR");
    await expect(decision.getByTestId("inbox-patient")).toHaveText("1000000001");
    const unreadable = page.locator(`[data-testid="inbox-message"][data-message-id="bad-${tag}"]`);
    await expect(unreadable).toBeVisible();
    await expect(unreadable.getByTestId("inbox-why")).toContainText("it is not a message the portal can read");

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, "docs/screenshots/40", `inbox-en-${width}.png`);
      await inArabic(page, async () => {
        await expect(page.getByRole("heading", { name: "وارد غير مطابق" }).first()).toBeVisible();
        // Why it is here, in the page's language (the element path as it is).
        await expect(unreadable.getByTestId("inbox-why")).toContainText("ليست رسالة يستطيع النظام قراءتها");
        await screenshot(page, "docs/screenshots/40", `inbox-ar-${width}.png`);
      });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // A reason is required; then the message leaves the list (kept, dismissed, audited).
    await decision.getByTestId("dismiss-button").click();
    await expect(decision.getByTestId("inbox-action-error")).toHaveText("Write a reason of at least 3 characters.");
    await decision.getByTestId("dismiss-reason").fill("Another clinic's claim");
    await decision.getByTestId("dismiss-button").click();
    await expect(decision).toHaveCount(0, { timeout: 15_000 });
    await unreadable.getByTestId("dismiss-reason").fill("Garbled by the payer; asked them to resend");
    await unreadable.getByTestId("dismiss-button").click();
    await expect(unreadable).toHaveCount(0, { timeout: 15_000 });
  });
});

import { expect, inArabic, markNoReload, pdfBytes, platformIdOf, screenshot, stillNoReload, test, type SandboxAdmin } from "./fixtures";


/** The platform's id of a claim submitted through the exchange API (its status Parameters name it once sent). */
/** The payer asks about the claim (sandbox: the CommunicationRequest goes through the mailbox). */
async function askForInformation(sandbox: SandboxAdmin, platformId: string, body: Record<string, unknown>) {
  await sandbox.call("POST", `/_admin/claims/${platformId}/request-information`, body);
}


test.describe("information requests", () => {
  test("billing: a payer's request appears live in the queue (overdue highlighted); answered with a document, the revised decision arrives live", async ({ page, signInAs, newClaim, sandbox, orgClient }) => {
    await signInAs("billing");
    // Above the review threshold: the platform pends the claim; asked at once, it waits for the answer.
    const claim = await newClaim({ unitPrice: 12_000 });
    await askForInformation(sandbox, await platformIdOf(orgClient, claim.id), { text: `Please send the lab report for this visit (${claim.id.slice(0, 8)}).`, attachmentTypes: ["Lab report"], dueInDays: 5 });

    await page.goto("/information-requests");
    const item = page.getByTestId("information-request").filter({ hasText: `lab report for this visit (${claim.id.slice(0, 8)})` });
    await expect(item).toBeVisible({ timeout: 20_000 });
    await markNoReload(page);
    // A request that arrives while the queue is open appears without a reload; past its due date, it is highlighted.
    const overdueClaim = await newClaim({ unitPrice: 12_000 });
    await askForInformation(sandbox, await platformIdOf(orgClient, overdueClaim.id), { text: `Please send the referral letter (${overdueClaim.id.slice(0, 8)}).`, attachmentTypes: ["Referral letter"], dueInDays: -2 });
    const overdue = page.getByTestId("information-request").filter({ hasText: `referral letter (${overdueClaim.id.slice(0, 8)})` });
    await expect(overdue).toBeVisible({ timeout: 20_000 });
    await expect(overdue).toHaveAttribute("data-overdue", "true");
    await expect(overdue.getByTestId("overdue-badge")).toHaveText("Overdue");
    await expect(item).not.toHaveAttribute("data-overdue", "true");
    await expect(item).toContainText("Documents asked for: Lab report");
    // The menu counts what waits, the overdue in red, updated live (docs/decisions/106).
    const count = page.getByTestId("nav-count-informationRequests");
    await expect(count).toHaveAttribute("data-due", /^[1-9]\d*$/);
    await expect(count).toContainText(/waiting, \d+ due or overdue/);
    expect(await stillNoReload(page)).toBe(true);
    // Billing's start page highlights it, with a link to the overdue ones.
    await page.goto("/authorizations");
    const highlight = page.getByTestId("overdue-highlight");
    await expect(highlight).toContainText(/due or overdue in Information requested/);
    await highlight.getByRole("link", { name: "Open them" }).first().click();
    await expect(page).toHaveURL(/\/information-requests\?show=overdue/);
    await expect(overdue).toBeVisible();
    await screenshot(page, "docs/screenshots/18", "information-requests-en.png");
    await inArabic(page, async () => {
      await expect(page.getByRole("heading", { name: "طلبات المعلومات" }).first()).toBeVisible();
      await screenshot(page, "docs/screenshots/18", "information-requests-ar.png");
    });

    // The claim page shows the request; answer it with a document.
    await page.goto(`/claims/${claim.id}`);
    await markNoReload(page);
    // Its due date is the claim's deadline now (docs/decisions/045), counted in clinic days.
    const deadline = page.getByTestId("deadline-badge");
    await expect(deadline).toHaveAttribute("data-kind", "information");
    await expect(deadline).toHaveText(/5 days left to answer the payer/);
    const section = page.getByTestId("information-requests");
    await expect(section).toContainText("lab report for this visit");
    await section.getByTestId("answer-text").fill("The lab report is attached.");
    await section.getByTestId("file-input").setInputFiles({ name: "lab report.pdf", mimeType: "application/pdf", buffer: pdfBytes("Lab report") });
    await expect(section.getByTestId("attachment-item")).toHaveCount(1);
    await section.getByTestId("answer-send").click();
    await expect(section.getByTestId("request-state")).toHaveText("Acknowledged by the payer", { timeout: 20_000 });
    const timeline = page.getByTestId("timeline");
    await expect(timeline).toContainText("The payer asked for information");
    await expect(timeline).toContainText("Information sent to the payer");
    await expect(timeline).toContainText("The payer acknowledged the information");
    // The revised decision, live.
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /complete|partial|denied/, { timeout: 30_000 });
    expect(await stillNoReload(page)).toBe(true);
    // Answered, it has left the open ones.
    await page.goto("/information-requests");
    await expect(overdue).toBeVisible();
    await expect(item).toHaveCount(0);
  });
});

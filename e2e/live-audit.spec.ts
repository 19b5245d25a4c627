import { createUser, expect, markNoReload, platformIdOf, signIn, stillNoReload, test } from "./fixtures";

/*
 * A live refresh is not a new PHI access (docs/decisions/078). One billing user has the Payments
 * page open in two tabs (two user views); ten remittances arrive from the payer, and each tab
 * renders the page again for each (no reload, no question to the server first). The audit log then
 * holds the two views of that user, not twenty-two.
 */
test.describe("live refreshes and the audit log", () => {
  test("10 live refreshes in 2 tabs: only the 2 user views are audited", async ({ page, browser, newClaim, sandbox, orgClient }) => {
    test.setTimeout(240_000);
    const claim = await newClaim();
    const billing = createUser(["billing"]);
    await signIn(page, billing.email, billing.password);
    await page.goto(`/claims/${claim.id}`);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /complete|partial/, { timeout: 45_000 });
    const platformId = await platformIdOf(orgClient, claim.id);

    // Two tabs of the same session, each a user view of the Payments page.
    const tabs = [page, await page.context().newPage()];
    for (const tab of tabs) {
      await tab.goto("/payments");
      await expect(tab.getByRole("heading", { level: 1 })).toBeVisible();
      await markNoReload(tab);
    }
    for (let i = 0; i < 10; i++) {
      const remittance = (await sandbox.call("POST", "/_admin/remittances", { claims: [{ id: platformId, amount: 1 }] })) as { paymentIdentifier: { value: string } };
      for (const tab of tabs) {
        await expect(tab.locator('[data-testid="remittance-row"]', { hasText: remittance.paymentIdentifier.value })).toBeVisible({ timeout: 30_000 });
      }
    }
    for (const tab of tabs) expect(await stillNoReload(tab)).toBe(true);

    // What the audit log holds for this user's views of the Payments page.
    const admin = createUser(["admin"]);
    const auditor = await browser.newContext();
    const auditPage = await auditor.newPage();
    try {
      await signIn(auditPage, admin.email, admin.password);
      await auditPage.goto(`/audit?action=payments.view&actor=${encodeURIComponent(billing.email)}`);
      const rows = auditPage.locator("tbody tr").filter({ hasText: "payments.view" });
      await expect(rows).toHaveCount(2);
      console.info(`[live-audit] payments.view rows after 2 tabs × 10 live refreshes: ${await rows.count()}`);
    } finally {
      await auditor.close();
    }
  });
});

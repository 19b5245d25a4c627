import type { Page } from "@playwright/test";
import { MESSAGING, expect, fillCareSetting, inArabic, markNoReload, pickCode, screenshot, sendClaimForm, stillNoReload, test } from "./fixtures";

/**
 * The payer's advanced authorization (guide v2.7 section 7.9; docs/decisions/101), from receipt to
 * a paid claim, in the messaging protocol against the strict sandbox: the payer (sandbox admin)
 * approves a seeded chronic patient's follow-up unasked; the poll brings it; the open list shows
 * it live; its page and the patient's page say "Approved by the payer" with its reference,
 * validity, lines and amounts; billing makes the claim from it; the payer decides and pays it.
 * Timeline screenshots (English and Arabic, 1280 and 390 px) go to docs/screenshots/40/.
 */
const SHOTS = "docs/screenshots/40";
const CHRONIC = "2087654311";

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, SHOTS, `${name}-${width}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("advanced authorization (docs/decisions/101)", () => {
  test.skip(!MESSAGING, "the journey runs in the messaging protocol (the poll brings it)");

  test("from receipt to a paid claim: originated by the payer, polled, shown live, billed, decided and paid", async ({ page, signInAs, sandbox }) => {
    test.setTimeout(240_000);
    await signInAs(["billing", "front_desk"]);
    await page.goto("/authorizations");
    await expect(page.getByTestId("authorizations-table")).toBeVisible();
    await markNoReload(page);

    // The payer approves unasked; the portal's poll brings it and the open list shows it without a reload.
    const apa = (await sandbox.call("POST", "/_admin/advanced-authorizations/demo", {})) as { preAuthRef: string; preAuthPeriod: { start: string; end: string } };
    const row = page.getByTestId("authorizations-table").locator("tr", { hasText: apa.preAuthRef });
    await expect(row).toBeVisible({ timeout: 45_000 });
    expect(await stillNoReload(page)).toBe(true);
    await expect(row.getByTestId("payer-badge")).toHaveText("Approved by the payer");
    await expect(row.getByTestId("status-badge")).toHaveAttribute("data-status", "complete");
    await expect(row.getByTestId("valid-until")).toContainText("valid until");
    await shoot(page, "list-en");
    await inArabic(page, async () => {
      await expect(page.getByTestId("authorizations-table").locator("tr", { hasText: apa.preAuthRef }).getByTestId("payer-badge")).toHaveText("معتمدة من شركة التأمين");
      await shoot(page, "list-ar");
    });

    // Its page: the payer's note, reference, validity, lines and amounts; the timeline names its arrival.
    await row.getByRole("link").first().click();
    await page.waitForURL(/\/authorizations\/[0-9a-f-]{36}$/);
    const authUrl = page.url();
    await expect(page.getByTestId("payer-note")).toBeVisible();
    await expect(page.getByTestId("preauth-ref")).toHaveText(apa.preAuthRef);
    await expect(page.getByTestId("validity")).toContainText("–");
    await expect(page.getByText("SVC-0102").first()).toBeVisible();
    await expect(page.getByText("LAB-4002").first()).toBeVisible();
    await expect(page.getByTestId("timeline")).toContainText("Approved by the payer (advanced authorization)");
    await shoot(page, "authorization-en");
    await inArabic(page, async () => {
      await expect(page.getByTestId("payer-badge")).toHaveText("معتمدة من شركة التأمين");
      await expect(page.getByTestId("timeline")).toContainText("اعتمدتها شركة التأمين");
      await shoot(page, "authorization-ar");
    });

    // The patient's page lists it as approved by the payer, with its reference.
    await page.goto(`/patients?q=${CHRONIC}`);
    await page.getByRole("link", { name: /Omar/ }).first().click();
    await page.waitForURL(/\/patients\/[0-9a-f-]{36}$/);
    const onPatient = page.locator("tr", { hasText: apa.preAuthRef });
    await expect(onPatient.getByTestId("payer-badge")).toBeVisible();
    await shoot(page, "patient-en");
    await inArabic(page, async () => {
      await expect(page.locator("tr", { hasText: apa.preAuthRef }).getByTestId("payer-badge")).toHaveText("معتمدة من شركة التأمين");
      await shoot(page, "patient-ar");
    });

    // Billing makes the claim from it: its lines and preAuthRef; adds the diagnosis and care team; sends it.
    await page.goto(authUrl);
    await page.getByRole("button", { name: "Create claim from this authorization" }).click();
    await page.waitForURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
    await expect(page.getByTestId("preauth-ref")).toContainText(apa.preAuthRef);
    await expect(page.getByTestId("selected-patient")).toContainText("Omar");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "E11.9");
    await expect(page.getByTestId("diagnoses")).toContainText("E11.9");
    await fillCareSetting(page, "Diabetes follow-up");
    await sendClaimForm(page);
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /complete|partial/, { timeout: 60_000 });
    const claimId = /submitted=([0-9a-f-]{36})/.exec(page.url())![1]!;

    // The payer pays it (a remittance through the mailbox); the claim shows the payment.
    await page.goto(`/claims/${claimId}`);
    const identifier = (await page.getByTestId("claim-identifier").textContent())!.trim();
    const claims = (await sandbox.call("GET", "/_admin/claims")) as { claims: { id: string; identifier: string }[] };
    const platformClaim = claims.claims.find((c) => identifier.includes(c.identifier));
    expect(platformClaim, "the sandbox holds the claim").toBeTruthy();
    await sandbox.call("POST", "/_admin/remittances", { claims: [{ id: platformClaim!.id }] });
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("claim-payment")).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 45_000 });

    // The authorization's page links the claim made from it.
    await page.goto(authUrl);
    await expect(page.getByText("Claims made from this authorization")).toBeVisible();
    await shoot(page, "authorization-billed-en");
    await inArabic(page, async () => {
      await shoot(page, "authorization-billed-ar");
    });

    // The payer cancels it (a reissue with reason cancel): the page shows it cancelled, the timeline says by whom.
    await sandbox.call("POST", `/_admin/advanced-authorizations/${apa.preAuthRef}/cancel`, {});
    await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", "cancelled", { timeout: 45_000 });
    await expect(page.getByTestId("timeline")).toContainText("Cancelled by the payer");
    await shoot(page, "authorization-cancelled-en");
    await inArabic(page, async () => {
      await expect(page.getByTestId("timeline")).toContainText("ألغتها شركة التأمين");
      await shoot(page, "authorization-cancelled-ar");
    });
  });
});

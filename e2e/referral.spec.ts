import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { MESSAGING, SERVICES, clinicDay, expect, fillAuthorizationRequest, fillVisitDetails, inArabic, pickCode, fillCareSetting, pickPatient, pickService, sendClaimForm, test } from "./fixtures";

/**
 * Transfer of care (guide v2.7 7.3, Table 37; docs/decisions/112, 120), in messaging against the
 * strict sandbox: the referring clinic asks a prior authorization with the transfer flag; the
 * payer's answer carries the receiving facility's transfer authorization (number, period,
 * provider), shown on the authorization's page; the receiving facility checks eligibility with the
 * transfer flag, and claims with the reason for visit "referral", the referring provider and the
 * transfer authorization (number and date) — refused in words while incomplete — and the claim is
 * decided. Screenshots (English and Arabic, 1280 and 390 px) go to SHOTS.
 */
const SHOTS = process.env.REFERRAL_SHOTS ?? "/tmp/shots/referral";
const PATIENT = "1000000001";

async function shoot(page: Page, name: string, arabic: () => Promise<void>): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const take = async (lang: "en" | "ar") => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${width}.png`), fullPage: true });
    }
  };
  await take("en");
  await inArabic(page, async () => {
    await arabic();
    await take("ar");
  });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("referral and transfer of care", () => {
  test.skip(!MESSAGING, "transfer of care is the national exchange's (messaging protocol)");

  test("the referring authorization with the transfer flag → the transfer number → the receiving facility's eligibility and referral claim, decided", async ({ page, signInAs }) => {
    test.setTimeout(300_000);
    await signInAs(["front_desk", "billing"]);

    // 1. The referring clinic: an MRI it cannot do, asked with the transfer flag.
    await page.goto("/authorizations/new");
    await fillAuthorizationRequest(page);
    await page.getByTestId("transfer-flag").check();
    await page.getByRole("button", { name: "Submit authorization request" }).click();
    const sent = /\/authorizations\/[0-9a-f-]{36}$/;
    await expect.poll(async () => sent.test(page.url()) || (await page.getByTestId("scrub-findings").isVisible()), { timeout: 30_000 }).toBe(true);
    if (!sent.test(page.url())) await page.getByRole("button", { name: "Send anyway" }).click();
    await page.waitForURL(sent);
    await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", /complete|partial/, { timeout: 60_000 });

    // 2. The answer's transfer authorization: number, period and receiving provider.
    const transfer = page.getByTestId("transfer-authorization");
    await expect(transfer).toBeVisible();
    const number = (await page.getByTestId("transfer-number").textContent())!.trim();
    expect(number).toMatch(/^TR-/);
    await shoot(page, "referring-authorization", async () => {
      await expect(page.getByTestId("transfer-authorization")).toContainText(number);
    });

    // 3. The receiving facility: eligibility with the transfer flag.
    await page.goto("/eligibility");
    await pickPatient(page, PATIENT);
    await expect(page.getByLabel("Insurer and coverage")).toHaveValue(/.+/);
    await page.getByTestId("eligibility-transfer").check();
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force", { timeout: 30_000 });

    // 4. Its claim on the referral: refused in words while the referral is incomplete, nothing sent.
    const fillClaim = async () => {
      await page.goto("/claims/new");
      await pickPatient(page, PATIENT);
      await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
      await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "m545");
      await fillCareSetting(page, "Referred for an MRI of the lower back");
      await pickService(page, 1, SERVICES.mri);
      await page.getByLabel("Quantity of line 1").fill("1");
      await page.getByLabel("Unit price of line 1").fill(SERVICES.mri.price);
      await page.getByTestId("referral-toggle").check();
      await expect(page.getByTestId("referral-fields")).toBeVisible();
      await page.getByTestId("referral-fields").getByLabel("Transfer authorization number").fill(number);
      if (MESSAGING) await fillVisitDetails(page);
    };
    await fillClaim();
    const referral = page.getByTestId("referral-fields");
    await page.getByRole("button", { name: "Submit claim" }).click();
    await expect(referral).toContainText("Enter the name of the referring provider.");
    await expect(referral).toContainText("Enter the date of the transfer authorization.");
    await expect(referral.getByLabel("Referring provider")).toHaveAttribute("aria-invalid", "true");
    expect(page.url()).not.toContain("submitted=");
    await shoot(page, "referral-claim-refused", async () => {
      await page.getByTestId("referral-toggle").check();
      await page.getByRole("button", { name: "إرسال المطالبة" }).click();
      await expect(page.getByTestId("referral-fields")).toContainText("أدخل اسم مقدم الخدمة المحيل.");
    });

    // The language switch reloaded the form: filled again, now complete.
    await fillClaim();
    await referral.getByLabel("Referring provider").fill("Riyadh Family Clinic");
    await referral.getByLabel("Date of the transfer authorization").fill(clinicDay());
    await sendClaimForm(page);
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    await page.getByTestId("submitted-open").click();
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /complete|partial/, { timeout: 60_000 });
    await page.getByTestId("raw-claim").locator("summary").click();
    const raw = page.getByTestId("raw-claim").locator("pre");
    await expect(raw).toContainText("reason-for-visit");
    await expect(raw).toContainText('"referral"');
    await expect(raw).toContainText("Riyadh Family Clinic");
    await expect(raw).toContainText(number);
    await expect(raw).toContainText("extension-authorization-offline-date");
    await shoot(page, "referral-claim-decided", async () => {
      await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /complete|partial/);
    });
  });
});

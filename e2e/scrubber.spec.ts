import type { Page } from "@playwright/test";
import { DEMO, adminCli, expect, fillCareSetting, inArabic, pickCode, pickPatient, screenshot, signIn, test } from "./fixtures";

/*
 * Catching rejections before they leave (docs/decisions/089–091): the front desk's estimate for a
 * visit, a claim the scrubber blocks with its fix shown, and billing's override, audited — in
 * English and Arabic.
 */
const SHOTS = "docs/screenshots/30";

/** Both widths the shares are looked at: the desk's screen and a phone (390 px). */
async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, SHOTS, `${name}-desktop.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, SHOTS, `${name}-phone.png`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * The sandbox's class C member (Nakheel: 30 % share, 50.00 annual deductible, 500.00 out-of-pocket
 * maximum — sandbox/seed-training.ts) registered in the portal, once per data folder.
 */
function registerClassCPatient() {
  const record = {
    patient: { nationalId: "1087654321", givenName: "Sara", familyName: "Pharmacy", birthDate: "1970-06-30", gender: "female", phone: "" },
    coverages: [{ insurerId: "payer-nakheel", memberId: "NKL-55400", coverageRef: "cov-1087654321" }],
  };
  adminCli(["patient:import"], JSON.stringify([record]));
}

/** The front desk checks a patient's eligibility (in force) and opens the printable result, where the estimate is. */
async function checkEligibilityOf(page: Page, nationalId: string) {
  await page.goto("/eligibility");
  await page.getByRole("combobox", { name: /^patient$/i }).focus();
  await page.keyboard.type(nationalId);
  await expect(page.getByRole("option").first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Check eligibility" }).click();
  await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force");
  await page.getByRole("link", { name: "Open the printable result" }).click();
  await expect(page).toHaveURL(/\/eligibility\/[0-9a-f-]{36}$/);
}

async function submitButton(page: Page) {
  return page.getByTestId("claim-form").locator('button[type="submit"]');
}

test.describe("scrubber and estimate", () => {
  test("front desk: the estimate for a visit — shares, VAT, what needs an authorization; printable, in Arabic", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await checkEligibilityOf(page, "2087654311");

    const estimate = async (label: string) => {
      const picker = page.getByTestId("estimate-services").getByRole("combobox", { name: label });
      await pickCode(page, picker, "99214");
      await pickCode(page, picker, "72148");
      // A code of the exchange's own laboratory list, searched in the same picker (decision 091).
      await pickCode(page, picker, "LAB-4001");
      await page.getByTestId("estimate-run").click();
      await expect(page.getByTestId("estimate-line")).toHaveCount(3);
    };
    await estimate("Planned services");
    // The resident's Rimal plan: 10 % copay on a 350.00 consultation = 35.00, plus 15 % VAT on it.
    const consult = page.locator('[data-testid="estimate-line"][data-code="99214"]');
    await expect(consult.getByTestId("estimate-patient-total")).toHaveText("SAR 40.25");
    await expect(page.locator('[data-testid="estimate-line"][data-code="72148"]').getByTestId("estimate-auth")).toHaveText("Needs prior authorization");
    // The blood count at its contract row (60.00), from the laboratory benefit: 10 % = 6.00, VAT 0.90.
    const lab = page.locator('[data-testid="estimate-line"][data-code="LAB-4001"]');
    await expect(lab).toContainText("Complete blood count");
    await expect(lab.getByTestId("estimate-patient-total")).toHaveText("SAR 6.90");
    await expect(page.getByTestId("visit-estimate")).toContainText("VAT 15 % (non-Saudi patient).");
    // The document the VAT depends on, and the annual amounts (this plan's deductible is met).
    await expect(page.getByTestId("estimate-document")).toHaveText("Iqama (resident) 2087654311");
    await expect(page.getByTestId("estimate-vat-rate")).toHaveText("15 % — not a Saudi citizen");
    await expect(page.getByTestId("estimate-deductible-left")).toContainText("Deductible left");
    await expect(page.getByTestId("estimate-deductible-left")).toContainText("SAR 0.00 of SAR 500.00 now; SAR 0.00 after this visit");
    await expect(page.getByTestId("estimate-out-of-pocket-left")).toContainText("of SAR 5,000.00 now");
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

  test("a deductible not yet met: in the estimate, and live on the claim form as the lines change — in English and Arabic, desk and phone", async ({ page, signInAs }) => {
    registerClassCPatient();
    await signInAs(["front_desk", "billing"]);
    await checkEligibilityOf(page, "1087654321");
    await expect(page.getByTestId("annual-deductible")).toHaveText("Annual deductible: SAR 0.00 of SAR 50.00 met, SAR 50.00 left");

    const estimate = async (label: string) => {
      await pickCode(page, page.getByTestId("estimate-services").getByRole("combobox", { name: label }), "73030");
      await page.getByTestId("estimate-run").click();
      await expect(page.getByTestId("estimate-line")).toHaveCount(1);
    };
    await estimate("Planned services");
    // Nakheel's 142.50 X-ray: the 50.00 deductible in full, then 30 % of 92.50 (27.75); a citizen pays no VAT.
    const xray = page.locator('[data-testid="estimate-line"][data-code="73030"]');
    await expect(xray.getByTestId("estimate-line-deductible")).toHaveText("of which SAR 50.00 deductible");
    await expect(xray.getByTestId("estimate-patient-total")).toHaveText("SAR 77.75");
    await expect(page.getByTestId("estimate-patient-pays")).toHaveText("In all, the patient pays SAR 77.75 (share and VAT).");
    await expect(page.getByTestId("estimate-deductible-left")).toContainText("SAR 50.00 of SAR 50.00 now; SAR 0.00 after this visit");
    await expect(page.getByTestId("estimate-out-of-pocket-left")).toContainText("SAR 500.00 of SAR 500.00 now; SAR 422.25 after this visit");
    await expect(page.getByTestId("estimate-document")).toHaveText("National ID (citizen) 1087654321");
    await expect(page.getByTestId("estimate-vat-rate")).toHaveText("0 % — Saudi citizen");
    await shots(page, "estimate-deductible-en");
    await inArabic(page, async () => {
      await estimate("الخدمات المخطط لها");
      await expect(page.getByTestId("estimate-deductible-left")).toContainText("المتبقي من مبلغ الاقتطاع");
      await expect(page.getByTestId("estimate-document")).toContainText("هوية وطنية (مواطن)");
      await shots(page, "estimate-deductible-ar");
    });

    // The claim form: the shares follow the lines as they are typed.
    await page.goto("/claims/new");
    await pickPatient(page, "1087654321");
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await pickCode(page, page.getByRole("combobox", { name: "Service of line 1" }), "73030");
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill("142.50");
    const shares = page.getByTestId("live-shares");
    const line = shares.locator('[data-testid="live-share-line"][data-line="1"]');
    await expect(line).toContainText("SAR 64.75");
    await expect(line).toContainText("SAR 77.75");
    await expect(line).toContainText("of which SAR 50.00 deductible");
    await expect(shares.getByTestId("live-total-vat")).toHaveText("SAR 0.00");
    // Two X-rays: 285.00 eligible, 50.00 deductible + 30 % of 235.00 = 120.50 for the patient.
    await page.getByLabel("Quantity of line 1").fill("2");
    await expect(shares.getByTestId("live-total-patient")).toHaveText("SAR 120.50");
    await expect(shares.getByTestId("live-total-payer")).toHaveText("SAR 164.50");
    await expect(shares.getByTestId("live-shares-patient-pays")).toHaveText("The patient pays SAR 120.50 (share and VAT).");
    await shots(page, "claim-shares-en");
    // Kept as a draft, so the Arabic page (a reload) reopens the same lines.
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
    await inArabic(page, async () => {
      await expect(page.getByTestId("live-shares")).toContainText("حصص هذه المطالبة");
      await expect(page.getByTestId("live-share-line")).toHaveCount(1);
      await expect(page.getByTestId("live-share-line")).toContainText("مبلغ الاقتطاع");
      await shots(page, "claim-shares-ar");
    });
  });
});

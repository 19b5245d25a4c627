import type { Page } from "@playwright/test";
import { BASE_URL, DEMO_PASSWORD, MESSAGING, createUser, expect, fillVisitDetails, inArabic, pickCode, pickPatient, screenshot, sendClaimForm, signIn, test } from "./fixtures";

/**
 * Prescriptions verified before they are dispensed (guide 7.11, docs/decisions/116), a messaging
 * journey against the strict sandbox: a prescriber writes a prescription with 2 refills and sends
 * it; the payer's answer shows each medicine's decision, the refills approved and its reference;
 * billing then dispenses it twice as pharmacy claims that name it — the second dispensing another
 * medicine than the one prescribed, with the pharmacist's reason and the substitute. The portal
 * counts the dispenses: the page's refills left go 2 → 1 → 0 and a third dispense is refused in
 * words (docs/decisions/121). A prescription whose refills the payer cut is appealed from its page.
 */

const SHOTS = "test-results/prescriptions-shots";
const PATIENT = "2087654311";

async function shots(page: Page, name: string) {
  await screenshot(page, SHOTS, `${name}-1280.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, SHOTS, `${name}-390.png`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The pharmacy claim's form filled for the patient, dispensing the verified prescription `reference`. */
async function fillDispense(page: Page, reference: string, substitute: boolean): Promise<void> {
  await page.goto("/claims/new");
  await pickPatient(page, PATIENT);
  await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
  await page.getByTestId("claim-type").selectOption("pharmacy");
  await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "J06");
  await page.getByTestId("days-supply").fill("10");
  await page.getByTestId("item-0-system").selectOption({ label: "Medicines" });
  await pickCode(page, page.getByRole("combobox", { name: "Service of line 1" }), "06280000000101");
  await page.getByLabel("Quantity of line 1").fill("1");
  await page.getByLabel("Unit price of line 1").fill("8");
  // The prescription's part of the form is its own chunk, loaded for pharmacy claims only.
  const picker = page.getByTestId("prescription-ref");
  await expect(picker.locator(`option[value="${reference}"]`)).toHaveCount(1, { timeout: 30_000 });
  await picker.selectOption(reference);
  if (substitute) {
    // The section is a lazy chunk: a click before it hydrates does not stick, so check until it does.
    await expect(async () => {
      await page.getByTestId("substituted-0").check({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    const section = page.getByTestId("prescription-dispensing");
    await section.getByLabel("Prescribed medicine").selectOption({ index: 1 });
    await section.getByLabel("Why").selectOption("out-of-stock");
    await section.getByLabel("Substitute").selectOption("generic");
    await shots(page, "pharmacy-claim-substituted-en");
  }
}

/** A pharmacy claim for the patient dispensing the verified prescription `reference`; returns the claim's raw JSON text. */
async function dispense(page: Page, reference: string, substitute: boolean): Promise<string> {
  await fillDispense(page, reference, substitute);
  await sendClaimForm(page);
  await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
  const id = new URL(page.url()).searchParams.get("submitted")!;
  await page.goto(`/claims/${id}`);
  await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /complete|partial/, { timeout: 60_000 });
  await page.getByTestId("raw-claim").locator("summary").click();
  return (await page.getByTestId("raw-claim").locator("pre").textContent()) ?? "";
}

test.describe("prescriptions verified before they are dispensed", () => {
  test.skip(!MESSAGING, "the prescription verification is a message of the national exchange (messaging)");

  test("a prescription with 2 refills is verified, then dispensed twice as pharmacy claims that name it", async ({ page, browser }) => {
    test.setTimeout(480_000);
    await signIn(page, "prescriber@clinic.example", DEMO_PASSWORD);
    await page.goto("/prescriptions/new");
    await pickPatient(page, PATIENT);
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await page.getByLabel("Prescriber").selectOption({ index: 1 });
    await pickCode(page, page.getByRole("combobox", { name: "Diagnosis" }), "J06");
    // Sending with nothing of the medicine: each missing field in words, nothing sent.
    await page.getByRole("button", { name: "Send for verification" }).click();
    await expect(page.getByText("Check the fields marked.")).toBeVisible();
    await expect(page.getByText("Required.").first()).toBeVisible();
    await pickCode(page, page.getByRole("combobox", { name: "Medicine" }), "paracetamol");
    await page.getByLabel("Strength").fill("500 mg");
    await page.getByLabel("Dose", { exact: true }).fill("1");
    await page.getByLabel("Unit").fill("tablet");
    await page.getByLabel("How often").selectOption("3/d");
    await page.getByLabel("For (days)").fill("10");
    await page.getByLabel("Refills").fill("2");
    await shots(page, "prescription-new-en");
    await page.getByRole("button", { name: "Send for verification" }).click();
    await page.waitForURL(/\/prescriptions\/[0-9a-f-]{36}$/);
    const line = page.getByTestId("prescription-line-1");
    await expect(async () => {
      await page.reload();
      await expect(line.getByTestId("approved-refills")).toHaveText("2", { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(line.getByTestId("line-decision")).toHaveText("Approved");
    await expect(line.getByTestId("left-refills")).toHaveText("2");
    await expect(page.getByTestId("refills-summary")).toHaveAttribute("data-left", "2");
    const reference = ((await page.getByTestId("prescription-reference").textContent()) ?? "").trim();
    expect(reference).toMatch(/^\S+$/);
    await shots(page, "prescription-verified-en");
    await inArabic(page, async () => {
      await expect(line.getByTestId("line-decision")).toHaveText("موافق عليه");
      // The medicine's Arabic name from the catalogue (docs/decisions/121).
      await expect(line.getByTestId("medicine-name")).toContainText("باراسيتامول");
      await shots(page, "prescription-verified-ar");
    });
    const prescriptionUrl = page.url();
    await page.goto("/prescriptions");
    await expect(page.getByText(reference)).toBeVisible();
    /** The prescriber's page after a dispense: the refills left. */
    const leftAfter = async (n: number) => {
      await page.goto(prescriptionUrl);
      await expect(line.getByTestId("left-refills")).toHaveText(String(n));
      await expect(line.getByTestId("used-refills")).toHaveText(String(2 - n));
      await expect(page.getByTestId("refills-summary")).toHaveAttribute("data-left", String(n));
    };

    // Billing dispenses it twice, as pharmacy claims that name it.
    const billing = createUser(["billing"]);
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
    const pharmacy = await context.newPage();
    try {
      await signIn(pharmacy, billing.email, billing.password);
      const first = await dispense(pharmacy, reference, false);
      expect(first).toContain('"prescription"');
      expect(first).toContain(reference);
      expect(first).not.toContain("pharmacist-substitute");
      await leftAfter(1);
      const second = await dispense(pharmacy, reference, true);
      expect(second).toContain(reference);
      expect(second).toContain("pharmacist-substitute");
      expect(second).toContain("out-of-stock");
      await shots(pharmacy, "pharmacy-claim-dispensed-en");
      await inArabic(pharmacy, async () => {
        await shots(pharmacy, "pharmacy-claim-dispensed-ar");
      });
      await leftAfter(0);
      await shots(page, "prescription-refills-used-en");
      await inArabic(page, async () => {
        await shots(page, "prescription-refills-used-ar");
      });
      // A third dispense: refused in words, nothing sent.
      await fillDispense(pharmacy, reference, false);
      if (MESSAGING) await fillVisitDetails(pharmacy);
      await pharmacy.getByRole("button", { name: "Submit claim" }).click();
      const refused = pharmacy.getByText("Every refill the payer approved for this prescription has been dispensed.", { exact: false });
      await expect.poll(async () => (await refused.isVisible()) || (await pharmacy.getByTestId("scrub-findings").isVisible()), { timeout: 30_000 }).toBe(true);
      if (!(await refused.isVisible())) await pharmacy.getByRole("button", { name: "Send anyway" }).click();
      await expect(refused.first()).toBeVisible({ timeout: 30_000 });
      expect(pharmacy.url()).not.toMatch(/submitted=/);
      await shots(pharmacy, "pharmacy-claim-refused-en");
    } finally {
      await context.close();
    }
  });

  test("a prescription whose refills the payer cut is appealed from its page: the cut line, a justification, the appeal decided", async ({ page }) => {
    test.setTimeout(300_000);
    await signIn(page, "prescriber@clinic.example", DEMO_PASSWORD);
    await page.goto("/prescriptions/new");
    await pickPatient(page, PATIENT);
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await page.getByLabel("Prescriber").selectOption({ index: 1 });
    await pickCode(page, page.getByRole("combobox", { name: "Diagnosis" }), "J06");
    await pickCode(page, page.getByRole("combobox", { name: "Medicine" }), "paracetamol");
    await page.getByLabel("Strength").fill("500 mg");
    await page.getByLabel("Dose", { exact: true }).fill("1");
    await page.getByLabel("Unit").fill("tablet");
    await page.getByLabel("How often").selectOption("2/d");
    await page.getByLabel("For (days)").fill("30");
    // More refills than the payer approves (the sandbox's most is 3): the line comes back cut.
    await page.getByLabel("Refills").fill("6");
    await page.getByRole("button", { name: "Send for verification" }).click();
    await page.waitForURL(/\/prescriptions\/[0-9a-f-]{36}$/);
    const line = page.getByTestId("prescription-line-1");
    await expect(async () => {
      await page.reload();
      await expect(line.getByTestId("line-decision")).toHaveText("Partly approved", { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(line.getByTestId("approved-refills")).toHaveText("3");
    await page.getByTestId("appeal-prescription").click();
    await page.waitForURL(/\/prescriptions\/[0-9a-f-]{36}\/appeal$/);
    // Too short a justification: said in words, nothing sent.
    await page.getByLabel("Justification").fill("short");
    await page.getByRole("button", { name: "Send the appeal" }).click();
    await expect(page.getByText("Write at least 10 characters.")).toBeVisible();
    await page.getByLabel("Justification").fill("Chronic arthritis: six months of treatment, reviewed monthly; the report is attached to the file.");
    await shots(page, "prescription-appeal-en");
    await inArabic(page, async () => {
      await shots(page, "prescription-appeal-ar");
    });
    await page.getByLabel("Justification").fill("Chronic arthritis: six months of treatment, reviewed monthly; the report is attached to the file.");
    await page.getByRole("button", { name: "Send the appeal" }).click();
    await page.waitForURL(/\/prescriptions\/[0-9a-f-]{36}\?appealed=[0-9a-f-]{36}$/);
    const appeals = page.getByTestId("prescription-appeals");
    await expect(appeals).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(appeals.getByTestId("status-badge").first()).toHaveAttribute("data-status", /complete|partial/, { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await shots(page, "prescription-appealed-en");
    await appeals.getByRole("link").first().click();
    await expect(page.getByTestId("appeal-of")).toBeVisible();
  });
});

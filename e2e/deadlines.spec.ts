import { randomUUID } from "node:crypto";
import { clinicDay, expect, pickCode, pickPatient, screenshot, test, fillCareSetting } from "./fixtures";

const SHOTS = "docs/screenshots/18";

const daysAgo = (n: number) => clinicDay(-n);

test.describe("filing deadlines (docs/decisions/048)", () => {
  test("an administrator sets an insurer's window; a draft near its deadline warns in the form and the list; the dashboard counts it", async ({ page, signInAs, newPatient }) => {
    test.setTimeout(180_000); // insurer page, a fixture patient through the admin CLI, the claim form, the list, the dashboard
    await signInAs(["admin", "billing", "manager"]);
    // A new insurer with a 10-day submission window, added on the Insurers page.
    const insurerId = `payer-e2e-${randomUUID().slice(0, 8)}`;
    await page.goto("/settings/insurers");
    const add = page.getByTestId("insurer-new");
    await add.getByLabel("Exchange id").fill(insurerId);
    await add.getByLabel("Name (English)").fill("Deadline Test Insurance");
    await add.getByLabel("Name (Arabic)").fill("تأمين اختبار المواعيد");
    await add.getByLabel("Submit within (days of service)").fill("0");
    await add.getByTestId("insurer-save").click();
    await expect(add.getByText("A whole number of days from 1 to 3650.")).toBeVisible();
    await add.getByLabel("Submit within (days of service)").fill("10");
    await add.getByLabel("Resubmit within (days of rejection)").fill("5");
    await add.getByTestId("insurer-save").click();
    await expect(add.getByRole("status")).toHaveText("Insurer added.");
    await page.reload();
    await expect(page.getByTestId(`insurer-form-${insurerId}`).getByLabel("Submit within (days of service)")).toHaveValue("10");
    await screenshot(page, SHOTS, "insurers-en.png");

    // A draft claim served 5 days ago: 5 days left to file → warned.
    const patient = newPatient({ insurerId });
    await page.goto("/claims/new");
    await pickPatient(page, patient.nationalId);
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R51");
    await fillCareSetting(page);
    await pickCode(page, page.getByRole("combobox", { name: "Service of line 1" }), "99213");
    await page.locator("#item-0-date").fill(daysAgo(5));
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill("150");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
    const draftId = new URL(page.url()).searchParams.get("draft")!;
    await page.reload();
    const badge = page.getByTestId("deadline-badge");
    await expect(badge).toHaveAttribute("data-level", "soon");
    await expect(badge).toHaveText(/5 days left to file/);

    await page.goto("/claims?status=draft");
    const listed = page.locator(`[data-testid="claim-row"][data-id="${draftId}"] [data-testid="deadline-badge"]`);
    await expect(listed).toHaveAttribute("data-level", "soon");
    await expect(listed).toContainText("5 days left to file");

    await page.goto("/dashboard");
    await expect(page.getByTestId("at-risk-soon")).not.toHaveText("0");
    await expect(page.getByTestId("at-risk")).toBeVisible();
  });
});

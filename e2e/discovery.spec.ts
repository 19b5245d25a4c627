import { expect, screenshot, test } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * The front desk's walk-in (guide 7.1, Table 36): a patient who does not know their insurer is
 * registered, the insurers are asked which coverages they hold (discovery), the coverage found is
 * registered on the patient with one click and the visit's eligibility is checked with it.
 * 2456789011 is a sandbox training identity the portal does not know and no other journey registers
 * (Rimal Platinum, class VIP); the newborn journey owns 1066612340.
 */
const WALK_IN = "2456789011";
const SHOTS = "test-results/screenshots/discovery";

async function shots(page: Page, name: string) {
  for (const [label, width] of [["desk", 1280], ["phone", 390]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, SHOTS, `${name}-${label}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a walk-in patient without a known insurer is discovered, registered and checked in", async ({ page, signInAs }) => {
  await signInAs("front_desk");
  await page.goto("/patients/new");
  await page.getByLabel("National ID or Iqama number").fill(WALK_IN);
  await page.getByLabel("Given name").fill("Walkin");
  await page.getByLabel("Family name").fill("Al-Discovery");
  await page.getByLabel("Date of birth").fill("1986-04-12");
  await page.getByLabel("Gender").selectOption("male");
  await page.getByLabel("Marital status").selectOption("M");
  await page.getByRole("button", { name: "Register patient" }).click();
  await expect(page).toHaveURL(/\/patients\/[0-9a-f-]{36}$/);
  await expect(page.getByText("No coverage recorded yet")).toBeVisible();

  // From here the clicks of the desk are counted.
  let clicks = 0;
  const click = async (locator: ReturnType<Page["getByRole"]>) => {
    clicks++;
    await locator.click();
  };
  await click(page.getByTestId("check-eligibility"));
  await expect(page.getByTestId("discovery-mode")).toBeVisible();
  await expect(page.getByLabel("Ask")).toHaveValue("");
  await click(page.getByRole("button", { name: "Check eligibility" }));

  const found = page.getByTestId("discovered-coverage");
  await expect(found).toHaveCount(1, { timeout: 30_000 });
  await expect(found).toContainText("Rimal");
  await expect(found).toContainText("RML-55300");
  await expect(found).toContainText("Platinum");
  await expect(found).toContainText("In force");
  await shots(page, "discovered-en");
  await page.context().addCookies([{ name: "cx_locale", value: "ar", domain: "localhost", path: "/" }]);
  // The stored check in Arabic (the form's result is the same view).
  const resultLink = page.getByRole("link", { name: "Open the printable result" });
  const href = await resultLink.getAttribute("href");
  await page.goto(href!);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByTestId("discovered-coverage")).toContainText("RML-55300");
  await expect(page.getByTestId("register-coverage")).toHaveText("تسجيلها للمريض");
  await shots(page, "discovered-ar");
  await page.context().addCookies([{ name: "cx_locale", value: "en", domain: "localhost", path: "/" }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  await click(page.getByTestId("register-coverage"));
  await expect(page.getByText("Registered on the patient")).toBeVisible();
  await click(page.getByTestId("check-registered"));
  await expect(page.getByLabel("Insurer and coverage")).toHaveValue(/.+/);
  await click(page.getByRole("button", { name: "Check eligibility" }));
  await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force", { timeout: 30_000 });
  await shots(page, "checked-in-en");
  // Check eligibility, check, register, check with it, check: five clicks from the patient's record.
  expect(clicks).toBe(5);
  test.info().annotations.push({ type: "clicks", description: String(clicks) });

  // Registering it again is refused in words; the coverage's class feeds the contract prices.
  await page.goto(href!);
  await page.getByTestId("register-coverage").click();
  await expect(page.getByText("This coverage is already registered on the patient.")).toBeVisible();
});

import path from "node:path";
import { randomBytes } from "node:crypto";
import { E2E_PORTAL_DATA_DIR } from "../playwright.config";
import { adminCli, createUser, expect, inArabic, screenshot, signIn, test } from "./fixtures";

/**
 * Facilities (docs/decisions/049), as an administrator and a front-desk user would meet it: a second facility with
 * its own certificate (issued by the sandbox's CA) is added with the admin CLI, Settings shows its
 * certificate expiry and tests its connection, and a user of that facility checks eligibility over
 * that facility's certificate (the sandbox counts requests per certificate).
 */
const SANDBOX_DIR = path.join(path.dirname(E2E_PORTAL_DATA_DIR), "sandbox");

test("a second facility: its certificate in Settings, its own Test connection, its users' checks over its certificate", async ({ page, sandbox }) => {
  // Three sign-ins, two connection tests and a check on a machine shared with builds.
  test.setTimeout(180_000);
  const suffix = randomBytes(3).toString("hex");
  const code = `north-${suffix}`;
  const license = `PR-NORTH-${suffix.toUpperCase()}`;
  const issued = adminCli(["sandbox:facility", "--code", code, "--license", license, "--data-dir", SANDBOX_DIR]) as { cert: string; key: string };
  adminCli(["facility:add", "--code", code, "--name-en", "North Branch", "--name-ar", "فرع الشمال", "--license", license, "--cert", issued.cert, "--key", issued.key]);
  // A mistake is refused with what to fix, and nothing is stored.
  expect(() => adminCli(["facility:add", "--code", `x${suffix}`, "--name-en", "X", "--name-ar", "س", "--license", license, "--cert", issued.cert, "--key", issued.key])).toThrow(
    /already has this code or licence/,
  );

  const admin = createUser(["admin"]);
  await signIn(page, admin.email, admin.password);
  await page.goto("/settings");
  const row = page.locator(`tr[data-facility="${code}"]`);
  await expect(row).toContainText("North Branch");
  await expect(row).toContainText(license);
  await expect(row).toContainText(/until .+\d{4}/);
  await row.getByRole("button", { name: "Test connection: North Branch" }).click();
  await expect(row.getByText("All steps passed.")).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('tr[data-facility="main"]')).toContainText("Main facility");
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, "docs/screenshots/17", "facilities-test-connection-en.png");
  await inArabic(page, async () => {
    const arRow = page.locator(`tr[data-facility="${code}"]`);
    await expect(arRow).toContainText("فرع الشمال");
    await arRow.getByRole("button", { name: "اختبار الاتصال: فرع الشمال" }).click();
    await expect(arRow.getByRole("listitem")).toHaveCount(3, { timeout: 20_000 });
    await arRow.scrollIntoViewIfNeeded();
    await screenshot(page, "docs/screenshots/17", "facilities-test-connection-ar.png");
  });

  // A front-desk user of the facility: the check goes out with the facility's certificate.
  const clerk = createUser(["front_desk"]);
  adminCli(["user:facility", "--email", clerk.email, "--facility", code]);
  const count = async () => {
    const report = (await sandbox.call("GET", "/_admin/facilities")) as { facilities: { code: string; requests: number }[] };
    return report.facilities.find((f) => f.code === code)?.requests ?? 0;
  };
  const before = await count();
  await page.context().clearCookies();
  await signIn(page, clerk.email, clerk.password);
  await page.goto("/eligibility");
  const search = page.getByRole("combobox", { name: /^patient$/i });
  await search.focus();
  await page.keyboard.type("1000000001");
  await expect(page.getByRole("option").first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("selected-patient")).toBeVisible();
  await page.getByRole("button", { name: "Check eligibility" }).click();
  await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force");
  expect(await count()).toBeGreaterThan(before);
});

import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { BASE_URL, createUser, expect, inArabic, screenshot, signIn, test } from "./fixtures";

/*
 * Accounts an administrator can run (decision 102): a password reset to a temporary
 * password the user must change, an unlock, and "Change my password" — in the browser, as staff
 * would do it. Screenshots (English and Arabic, 1280 and 390 px) go to docs/screenshots/44/.
 */

const SHOTS = "docs/screenshots/44";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Signs in on the sign-in page and waits for wherever the portal sends the user. */
async function signInOnly(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function openUser(page: Page, email: string): Promise<void> {
  await page.goto("/settings/users");
  await page.getByTestId(`manage-${email}`).click();
  await expect(page).toHaveURL(/\/settings\/users\/[0-9a-f-]{36}$/);
}

/** Shots of the page as it is, at both widths (desktop first, back to desktop after). */
async function shots(page: Page, name: string, lang: "en" | "ar"): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, SHOTS, `${name}-${lang}-1280.png`);
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} ${lang} at 390 px scrolls sideways`).toBeLessThanOrEqual(0);
  await screenshot(page, SHOTS, `${name}-${lang}-390.png`);
  await page.setViewportSize(DESKTOP);
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ viewport: DESKTOP })).newPage();
}

test("an administrator resets a clerk's password; the clerk signs in with it, must change it, then signs in with the new one", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const admin = createUser(["admin"]);
  const clerk = createUser(["front_desk"]);
  await page.setViewportSize(DESKTOP);
  await signIn(page, admin.email, admin.password);
  await page.goto("/settings");
  await page.getByTestId("settings-users-link").click();
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(page.getByTestId(`state-${clerk.email}`)).toHaveText("Active");
  await shots(page, "users-list", "en");
  await inArabic(page, () => shots(page, "users-list", "ar"));

  await openUser(page, clerk.email);
  await page.getByTestId("reset-password-submit").click();
  // A second step confirms; then the temporary password is shown, once.
  await expect(page.getByText(/Reset the password of/)).toBeVisible();
  await page.getByTestId("reset-password-submit").click();
  const temporary = (await page.getByTestId("temporary-password").textContent())!.trim();
  expect(temporary).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
  await expect(page.getByTestId("user-state")).toContainText("Must change password");
  await shots(page, "user-reset", "en");
  // The password is not on the page after a reload.
  await page.reload();
  await expect(page.getByTestId("temporary-password")).toHaveCount(0);
  await inArabic(page, () => shots(page, "user-page", "ar"));

  // The clerk's old password no longer works; the temporary one does, and leads to the change.
  const clerkPage = await newPage(browser);
  await signInOnly(clerkPage, clerk.email, clerk.password);
  await expect(clerkPage.getByRole("alert").filter({ hasText: "Sign-in failed" })).toBeVisible();
  await signInOnly(clerkPage, clerk.email, temporary);
  await expect(clerkPage).toHaveURL(/\/change-password$/);
  await expect(clerkPage.getByRole("heading", { name: "Choose your own password" })).toBeVisible();
  // Nothing else opens until it is changed.
  await clerkPage.goto("/patients");
  await expect(clerkPage).toHaveURL(/\/change-password$/);
  const { violations } = await new AxeBuilder({ page: clerkPage }).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await shots(clerkPage, "change-required", "en");
  await inArabic(clerkPage, () => shots(clerkPage, "change-required", "ar"));

  const fresh = "river maple copper 2044";
  await clerkPage.getByLabel("Temporary or current password").fill(temporary);
  await clerkPage.getByLabel("New password", { exact: true }).fill(fresh);
  await clerkPage.getByLabel("New password again").fill("river maple copper 2045");
  await clerkPage.getByTestId("change-password-submit").click();
  const confirm = clerkPage.getByLabel("New password again");
  await expect(confirm).toHaveAttribute("aria-invalid", "true");
  await expect(clerkPage.getByText("The two new passwords are not the same.")).toBeVisible();
  await confirm.fill(fresh);
  await clerkPage.getByTestId("change-password-submit").click();
  await expect(clerkPage).toHaveURL(/\/patients$/);
  await clerkPage.getByRole("button", { name: "Sign out" }).click();
  await expect(clerkPage).toHaveURL(/\/sign-in/);
  await signInOnly(clerkPage, clerk.email, temporary);
  await expect(clerkPage.getByRole("alert").filter({ hasText: "Sign-in failed" })).toBeVisible();
  await signIn(clerkPage, clerk.email, fresh);
  await expect(clerkPage).toHaveURL(/\/patients$/);
  await clerkPage.context().close();

  // The list shows the clerk active again, with a last sign-in.
  await page.goto("/settings/users");
  await expect(page.getByTestId(`state-${clerk.email}`)).toHaveText("Active");
});

test("an administrator unlocks a locked account", async ({ page, playwright }) => {
  test.setTimeout(240_000);
  const admin = createUser(["admin"]);
  const clerk = createUser(["billing"]);
  // Ten wrong passwords lock the account (lib/auth/credentials.ts).
  const api = await playwright.request.newContext({ baseURL: BASE_URL });
  for (let i = 0; i < 10; i++) {
    const { csrfToken } = (await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string };
    await api.post("/api/auth/callback/credentials", { form: { csrfToken, email: clerk.email, password: `wrong-${i}-password` }, headers: { origin: BASE_URL }, maxRedirects: 0 });
  }
  await api.dispose();

  await page.setViewportSize(DESKTOP);
  await signIn(page, admin.email, admin.password);
  await page.goto("/settings/users");
  await expect(page.getByTestId(`state-${clerk.email}`)).toHaveText("Locked");
  await openUser(page, clerk.email);
  await expect(page.getByText(/Locked after repeated failed sign-ins, until/)).toBeVisible();
  await shots(page, "user-locked", "en");
  await inArabic(page, () => shots(page, "user-locked", "ar"));
  await page.getByTestId("unlock-user-submit").click();
  await expect(page.getByText("The account is unlocked.")).toBeVisible();
  await expect(page.getByTestId("user-state")).toHaveText("Active");

  // An administrator cannot disable themself: the refusal says why.
  await openUser(page, admin.email);
  await page.getByTestId("disable-user-submit").click();
  await page.getByTestId("disable-user-submit").click();
  await expect(page.getByRole("alert").filter({ hasText: "You cannot do this to your own account: it would lock you out. Ask another administrator." })).toBeVisible();

  const clerkPage = await page.context().browser()!.newPage();
  await signIn(clerkPage, clerk.email, clerk.password);
  await clerkPage.context().close();
});

test("a user changes their own password", async ({ page }) => {
  test.setTimeout(180_000);
  const user = createUser(["manager"]);
  await page.setViewportSize(DESKTOP);
  await signIn(page, user.email, user.password);
  await page.getByTestId("change-my-password").click();
  await expect(page).toHaveURL(/\/account\/password$/);
  await page.getByLabel("Current password").fill("not my password at all");
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("New password again").fill("short");
  await page.getByTestId("change-password-submit").click();
  await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Use at least 12 characters.")).toBeVisible();
  const fresh = "window garden pebble 77";
  await page.getByLabel("New password", { exact: true }).fill(fresh);
  await page.getByLabel("New password again").fill(fresh);
  await page.getByTestId("change-password-submit").click();
  // The server checks the current password (argon2) and says which field is wrong.
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert").filter({ hasText: "The current password is not right." })).toBeVisible();
  await shots(page, "account-password", "en");
  await inArabic(page, () => shots(page, "account-password", "ar"));
  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill(fresh);
  await page.getByLabel("New password again").fill(fresh);
  await page.getByTestId("change-password-submit").click();
  await expect(page.getByRole("status").filter({ hasText: "Your password is changed." })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await signInOnly(page, user.email, user.password);
  await expect(page.getByRole("alert").filter({ hasText: "Sign-in failed" })).toBeVisible();
  await signIn(page, user.email, fresh);
});

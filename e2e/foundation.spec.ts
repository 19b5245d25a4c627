import { DEMO, adminCli, createUser, expect, navLabels, signIn, test } from "./fixtures";

test.describe("roles and navigation", () => {
  const cases = [
    { email: DEMO.frontDesk, home: "/patients", nav: ["Patients", "Eligibility", "Authorizations", "Information requested", "Visits ahead"] },
    { email: DEMO.billing, home: "/authorizations", nav: ["Authorizations", "Claims", "Information requested", "Payments", "Received, not matched"] },
    { email: DEMO.manager, home: "/dashboard", nav: ["Dashboard", "Visits ahead"] },
    { email: DEMO.admin, home: "/settings", nav: ["Settings", "Audit log"] },
    { email: DEMO.prescriber, home: "/prescriptions", nav: ["Prescriptions"] },
  ];
  for (const c of cases) {
    test(`${c.email} sees exactly its navigation`, async ({ page }) => {
      await signIn(page, c.email);
      await expect(page).toHaveURL(c.home);
      expect(await navLabels(page)).toEqual(c.nav);
    });
  }

  test("on a phone the menu is behind a menu button (docs/decisions/106)", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, DEMO.billing);
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    const button = nav.getByRole("button", { name: "Menu" });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link")).toHaveCount(0);
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(nav.getByRole("link")).toHaveCount(5);
    if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/menu-open-en-390.png` });
    await nav.getByRole("link", { name: /^Claims/ }).click();
    await expect(page).toHaveURL("/claims");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    // On a desktop the areas are in view, no button.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(button).toBeHidden();
    expect(await navLabels(page)).toEqual(["Authorizations", "Claims", "Information requested", "Payments", "Received, not matched"]);
  });

  test("a user with two roles sees both areas", async ({ page }) => {
    const user = createUser(["billing", "manager"]);
    await signIn(page, user.email, user.password);
    expect(await navLabels(page)).toEqual(["Authorizations", "Claims", "Information requested", "Payments", "Received, not matched", "Dashboard", "Visits ahead"]);
  });
});

test.describe("access control", () => {
  test("front desk opening an admin page gets a 403 page, not the content", async ({ page }) => {
    await signIn(page, DEMO.frontDesk);
    for (const path of ["/audit", "/settings"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
      await expect(page.getByText("Audit log", { exact: true })).toHaveCount(0);
      await expect(page.getByText("admin@clinic.example")).toHaveCount(0);
    }
  });

  test("signed-out visitors are sent to sign-in and come back afterwards", async ({ page }) => {
    await page.goto("/audit?outcome=failure");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faudit%3Foutcome%3Dfailure/);
    await page.getByLabel("Work email").fill(DEMO.admin);
    await page.getByLabel("Password").fill("demo-pass-2026");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/audit?outcome=failure");
  });

  test("sign-out ends the session, even for a copied cookie", async ({ page, browser }) => {
    await signIn(page, DEMO.manager);
    const cookies = await page.context().cookies();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/sign-in/);
    // Replaying the old session cookie in a fresh browser does not get back in.
    const replay = await browser.newContext();
    await replay.addCookies(cookies);
    const other = await replay.newPage();
    await other.goto("/dashboard");
    await expect(other).toHaveURL(/\/sign-in/);
    await replay.close();
  });

  test("disabling a user with the admin CLI ends their session at once", async ({ page }) => {
    const user = createUser(["billing"]);
    await signIn(page, user.email, user.password);
    adminCli(["user:disable", "--email", user.email]);
    await page.reload();
    await expect(page).toHaveURL(/\/sign-in/);
  });
});

test.describe("sign-in failures", () => {
  test("one generic message, and 10 failures lock the account for 15 minutes", async ({ page }) => {
    const user = createUser(["front_desk"]);
    const generic = "Sign-in failed. Check your email and password and try again.";
    await page.goto("/sign-in");
    // An unknown account gets the same message as a wrong password.
    await page.getByLabel("Work email").fill("nobody@clinic.example");
    await page.getByLabel("Password").fill("whatever-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-failure")).toContainText(generic);

    await page.getByLabel("Work email").fill(user.email);
    for (let i = 0; i < 10; i++) {
      await page.getByLabel("Password").fill(`wrong-password-${i}`);
      // Wait for each attempt to reach the server: the message is the same every time.
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/sign-in")),
        page.getByRole("button", { name: "Sign in" }).click(),
      ]);
      await expect(page.locator("#sign-in-failure")).toContainText(generic);
      await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    }
    // Now even the right password is refused, with the same words.
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-failure")).toContainText(generic);
    await expect(page).toHaveURL(/\/sign-in/);

    const list = adminCli(["user:list"]) as { email: string; status: string }[];
    expect(list.find((u) => u.email === user.email)?.status).toBe("locked");

    // The lockout is in the audit log.
    await signIn(page, "admin@clinic.example");
    await page.goto(`/audit?action=auth.lockout&actor=${encodeURIComponent(user.email)}`);
    await expect(page.getByRole("cell", { name: "auth.lockout" })).toHaveCount(1);
  });

  test("the form says what to fix before sending anything", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Work email").fill("not-an-email");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Enter an email address like name@clinic.example.")).toBeVisible();
    await expect(page.getByText("Enter your password.")).toBeVisible();
    await expect(page.getByLabel("Work email")).toHaveAttribute("aria-invalid", "true");
  });
});

test.describe("audit log", () => {
  test("records sign-ins and can be filtered", async ({ page }) => {
    await signIn(page, DEMO.admin);
    await page.goto("/audit");
    await page.getByLabel("Action").selectOption("auth.sign_in");
    await page.getByLabel("Outcome").selectOption("success");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/action=auth.sign_in/);
    const rows = page.locator("tbody tr");
    await expect(rows.first()).toContainText("auth.sign_in");
    await expect(page.locator("tbody")).not.toContainText("Failure");
  });

  test("nonsense filters are reported, not a server error", async ({ page }) => {
    await signIn(page, DEMO.admin);
    const response = await page.goto("/audit?from=2026-99-99&outcome=perhaps&before=zzz");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("alert").filter({ hasText: "not understood" })).toBeVisible();
  });
});

test.describe("languages", () => {
  test("switching to Arabic gives dir=rtl and Arabic navigation, and persists", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "العربية" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await signIn(page, DEMO.frontDesk);
    expect(await navLabels(page)).toEqual(["المرضى", "الأهلية", "الموافقات المسبقة", "طلبات المعلومات", "الزيارات المسبقة"]);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await page.getByRole("button", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    expect(await navLabels(page)).toEqual(["Patients", "Eligibility", "Authorizations", "Information requested", "Visits ahead"]);
  });
});

test.describe("keyboard and headers", () => {
  test("sign-in and navigation work with the keyboard alone", async ({ page }) => {
    await page.goto("/sign-in");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Work email")).toBeFocused();
    await page.keyboard.type(DEMO.frontDesk);
    await page.keyboard.press("Tab");
    await page.keyboard.type("demo-pass-2026");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/patients");
    // The front desk lands in the patient search, ready to type.
    await expect(page.getByRole("searchbox")).toBeFocused();
    // On a page that does not start in a field, the first stop is the skip link, which moves focus
    // to the content.
    await page.goto("/authorizations");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("#main")).toBeFocused();
    // Navigation links are reachable by keyboard and open their page.
    await page.getByRole("link", { name: "Eligibility", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/eligibility");
  });

  test("pages carry the security headers", async ({ request }) => {
    const response = await request.get("/sign-in");
    const csp = response.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });
});

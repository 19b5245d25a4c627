import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DEMO, inArabic, signIn } from "./fixtures";

/**
 * The code catalogue (docs/decisions/086, 087): an administrator imports a CSV with a bad line in
 * Settings and sees the counts and the line refused in words; the picker (the shared combobox)
 * finds the imported code typed key by key; an unreadable file imports nothing. Screenshots of the
 * page and the open picker in both languages, at 1280 px and 390 px, go to test-results/terminology/.
 */
const SHOTS = path.join(process.cwd(), "test-results", "terminology");

test.describe("code catalogue", () => {
  test("import a CSV in Settings: counts and refused lines; the picker finds the new code key by key", async ({ page }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    await page.getByTestId("settings-terminology-link").click();
    await expect(page.getByRole("heading", { level: 1, name: "Code catalogue" })).toBeVisible();

    const unique = `E2E${Date.now().toString(36).toUpperCase()}`;
    const csv = `code,display,display_ar\n${unique}-1,Zebra-stripe test panel,لوحة فحص مخططة\n${unique}-1,Duplicate,\n,No code,\n`;
    await page.getByLabel("Format").selectOption("csv");
    await page.getByLabel("Code system", { exact: true }).selectOption("laboratory");
    await page.getByTestId("terminology-file").setInputFiles({ name: "lab.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByTestId("terminology-import").click();
    const result = page.getByTestId("terminology-result");
    await expect(result).toContainText("1 new, 0 updated, 0 unchanged, 2 refused.");
    const refused = page.getByTestId("terminology-refused");
    await expect(refused).toContainText(`the code ${unique}-1 was already given on line 2`);
    await expect(refused).toContainText("the code is empty");
    await expect(refused.getByRole("row").nth(1)).toContainText("3");

    // The picker, typed key by key (no character may be lost), finds the imported code by its words and by its code.
    const box = page.getByRole("combobox", { name: "Search all code systems" });
    await box.click();
    await box.pressSequentially("zebra-stripe", { delay: 15 });
    await expect(box).toHaveValue("zebra-stripe");
    const option = page.locator('ul[role="listbox"]:not([hidden]) [role="option"]').first();
    await expect(option).toContainText(`${unique}-1`);
    await page.screenshot({ path: path.join(SHOTS, "settings-picker-en-1280.png"), fullPage: true });
    await box.press("Enter");
    await expect(page.getByTestId("terminology-chosen")).toContainText(`${unique}-1 (Laboratory)`);
    await box.fill("");
    await box.pressSequentially(unique.toLowerCase(), { delay: 15 });
    await expect(box).toHaveValue(unique.toLowerCase());
    await expect(option).toContainText(`${unique}-1`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(SHOTS, "settings-import-en-390.png"), fullPage: true });

    await inArabic(page, async () => {
      await expect(page.getByRole("heading", { level: 1, name: "دليل الرموز" })).toBeVisible();
      const arBox = page.getByRole("combobox", { name: "ابحث في جميع أنظمة الرموز" });
      await arBox.click();
      await arBox.pressSequentially("مخططة", { delay: 15 });
      await expect(option).toContainText(`${unique}-1`);
      await expect(option).toContainText("لوحة فحص مخططة");
      await page.screenshot({ path: path.join(SHOTS, "settings-picker-ar-390.png"), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await arBox.press("Escape");
      await page.screenshot({ path: path.join(SHOTS, "settings-import-ar-1280.png"), fullPage: true });
    });
  });

  test("an unreadable file imports nothing and says why (never a 5xx)", async ({ page }) => {
    await signIn(page, DEMO.admin);
    const origin = new URL(page.url()).origin;
    const post = (query: string, data: string) => page.request.post(`/api/terminology/import?${query}`, { data: Buffer.from(data), headers: { "content-type": "application/octet-stream", origin } });
    const noHeader = await post("format=csv&system=imaging", "A1;one\nA2;two\n");
    expect(noHeader.status()).toBe(422);
    expect(((await noHeader.json()) as { message: string }).message).toMatch(/must name the columns/);
    const notFhir = await post("format=fhir", '{"resourceType":"ValueSet"}');
    expect(notFhir.status()).toBe(422);
    const unknownSystem = await post("format=csv&system=astrology", "code,display\nA,B\n");
    expect(unknownSystem.status()).toBe(422);
    expect(((await unknownSystem.json()) as { message: string }).message).toMatch(/not one of the catalogue's code systems/);
    const tooLarge = await page.request.post(`/api/terminology/import?format=csv&system=imaging`, { data: Buffer.alloc(15 * 1024 * 1024 + 1, 0x41), headers: { "content-type": "application/octet-stream", origin } });
    expect(tooLarge.status()).toBe(413);
  });
});

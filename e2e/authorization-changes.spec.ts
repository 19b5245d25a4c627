import type { Page } from "@playwright/test";
import { MESSAGING, expect, fillVisitDetails, inArabic, noteFirstLoad, pickCode, pickPatient, shootBothWidths, test } from "./fixtures";

/**
 * An authorization's whole life (docs/decisions/114; guide v2.7 7.3.1, Table 37), in the messaging
 * protocol against the strict sandbox: an inpatient stay is authorized, then extended twice from its
 * page — each change a new request with all its services, the same preAuthRef, `related` to the
 * version it changes — and the page shows the chain of versions, the current one first. The
 * earlier versions say they are overridden. Screenshots (English and Arabic, 1280 and 390 px) go to
 * test-results/43/.
 */
const SHOTS = "test-results/43";

const firstLoad = (page: Page, url: string, label: string, budgeted = true) => noteFirstLoad(page, url, label, SHOTS, budgeted);
const shoot = (page: Page, name: string) => shootBothWidths(page, SHOTS, name);

async function chooseInpatient(page: Page) {
  await expect(async () => {
    await page.getByTestId("claim-type").selectOption("institutional");
    await expect(page.getByTestId("claim-subtype").locator('option[value="ip"]')).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByTestId("claim-subtype").selectOption("ip");
}

/** Submits the authorization form ("Send anyway" once when the scrubber only warns) and waits for the decision. */
async function submitAndDecide(page: Page): Promise<string> {
  if (MESSAGING) await fillVisitDetails(page);
  await page.getByRole("button", { name: "Submit authorization request" }).click();
  const sent = /\/authorizations\/[0-9a-f-]{36}$/;
  await expect.poll(async () => sent.test(page.url()) || (await page.getByTestId("scrub-findings").isVisible()), { timeout: 30_000 }).toBe(true);
  if (!sent.test(page.url())) await page.getByRole("button", { name: "Send anyway" }).click();
  await page.waitForURL(sent);
  await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", /complete|partial/, { timeout: 60_000 });
  return page.url();
}

test.describe("changing an authorization (docs/decisions/114)", () => {
  test.skip(!MESSAGING, "the journey runs in the messaging protocol against the strict sandbox");

  test("an inpatient stay authorized, then extended twice: one reference, a chain of versions, the current one first", async ({ page, signInAs }) => {
    test.setTimeout(300_000);
    await signInAs("front_desk");
    await page.goto("/authorizations/new");
    await pickPatient(page, "2087654311");
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await chooseInpatient(page);
    await page.getByTestId("practitioner-PRAC-10001").check();
    await page.getByTestId("chief-complaint").fill("Gallstones: planned laparoscopic removal");
    await page.getByTestId("admission").fill("2026-11-20T08:00");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "K80.2");
    await page.getByTestId("item-0-system").selectOption({ label: "Procedures" });
    await pickCode(page, page.getByRole("combobox", { name: "Service of line 1" }), "PRC-1003");
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill("13000");
    await page.getByTestId("estimated-stay").fill("3");
    const first = await submitAndDecide(page);
    const preAuthRef = (await page.getByTestId("preauth-ref").textContent())!.trim();
    expect(preAuthRef).toMatch(/\S/);
    await expect(page.getByTestId("version-chain")).toHaveCount(0);

    // Extended: the change opens in the form with all its services and its reference; more days.
    for (const [n, days] of [[2, "5"], [3, "8"]] as const) {
      await page.getByTestId("change-authorization").click();
      await page.waitForURL(/\/authorizations\/new\?draft=[0-9a-f-]{36}$/);
      await expect(page.getByTestId("preauth-ref")).toContainText(preAuthRef);
      await expect(page.getByTestId("estimated-stay")).not.toHaveValue("");
      await page.getByTestId("estimated-stay").fill(days);
      await submitAndDecide(page);
      // The same reference; the chain lists every version, the current (this one) first.
      await expect(page.getByTestId("preauth-ref")).toHaveText(preAuthRef);
      const versions = page.getByTestId("version-chain").getByTestId("version");
      await expect(versions).toHaveCount(n);
      await expect(versions.first()).toHaveAttribute("data-current", "true");
      await expect(versions.first()).toContainText(`Version ${n}`);
    }
    // The raw request of the last version names the one it changes (related prior) and keeps the reference.
    await shoot(page, "authorization-extended-twice-en");
    await inArabic(page, async () => {
      await expect(page.getByTestId("version-chain")).toContainText("نسخ هذا التفويض");
      await expect(page.getByTestId("version-chain").getByTestId("version").first()).toContainText("الحالية");
      await shoot(page, "authorization-extended-twice-ar");
    });

    // The first version says it is overridden and links the current one; it can no longer be changed.
    await page.goto(first);
    await expect(page.getByTestId("overridden-note")).toBeVisible();
    await expect(page.getByTestId("change-authorization")).toHaveCount(0);
    const chain = page.getByTestId("version-chain").getByTestId("version");
    await expect(chain).toHaveCount(3);
    await expect(chain.first()).toContainText("Version 3");
    await expect(chain.last()).toContainText("Shown on this page");
    await shoot(page, "authorization-first-version-en");

    // First-load JavaScript of the pages this changed: the authorization with its chain, the change in the form, the evidence form.
    await firstLoad(page, first, "/authorizations/[id] (with versions)");
    await page.getByTestId("version-chain").getByTestId("version").first().getByRole("link").click();
    await page.waitForURL(/\/authorizations\/[0-9a-f-]{36}$/);
    const current = page.url();
    await page.getByTestId("change-authorization").click();
    await page.waitForURL(/\/authorizations\/new\?draft=[0-9a-f-]{36}$/);
    // The change opens in the budgeted form; with a patient chosen it also loads the visit-details chunk (decision 105), noted only.
    await firstLoad(page, page.url(), "/authorizations/new?draft (a change, incl. the lazy visit-details chunk)", false);
    await firstLoad(page, "/authorizations/new", "/authorizations/new");
    await firstLoad(page, `${current}/evidence`, "/authorizations/[id]/evidence");
  });
});

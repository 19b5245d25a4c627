import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { MESSAGING, SERVICES, adminCli, clinicDay, expect, fillCareSetting, inArabic, pickCode, pickPatient, pickService, sendClaimForm, test, uniqueNationalId } from "./fixtures";

/**
 * The front desk's newborn and offline days (docs/decisions/110, 111), in messaging against the
 * strict sandbox: a baby registered from the mother's page, checked and billed under her coverage
 * with the newborn flag and the birth weight, its claim decided; the refusals in words (a weight in
 * grams, a baby past its 30 days); an offline eligibility recorded at the desk and an offline
 * authorization typed by billing, both carried by a claim the sandbox decides. Screenshots (English
 * and Arabic, 1280 and 390 px) go to SHOTS.
 */
const SHOTS = process.env.NEWBORN_SHOTS ?? "/tmp/shots/newborn";
const WIDTHS = [1280, 390] as const;

/** The sandbox's training mother (1066612340) and her Rimal coverage, the one a newborn is billed under. */
const MOTHER = "1066612340";
/** The sandbox's training newborn: the exchange knows her by this number. */
const BABY = "1077712345";

function motherId(): string {
  const record = {
    patient: { nationalId: MOTHER, givenName: "Amal", familyName: "Mother", birthDate: "1994-08-19", gender: "female", phone: "", maritalStatus: "M" },
    coverages: [{ insurerId: "payer-rimal", memberId: "RML-55600", coverageRef: "cov-1066612340", coverageClass: "A" }],
  };
  const result = adminCli(["patient:import"], JSON.stringify([record])) as { lines: { outcome: string; patientId: string }[] };
  const line = result.lines[0];
  if (!line || (line.outcome !== "created" && line.outcome !== "existing")) throw new Error(`patient:import refused the mother: ${JSON.stringify(line)}`);
  return line.patientId;
}

/** Full-page screenshots at both widths, in English and (after a reload) Arabic; `arabic` checks the Arabic page first. */
async function shoot(page: Page, name: string, arabic: () => Promise<void>): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const take = async (lang: "en" | "ar") => {
    for (const width of WIDTHS) {
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

/** The page a registration opens: the baby's record, not the mother's it was made from. */
const babyPage = (mother: string) => (url: URL) => /^\/patients\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(mother);

async function fillNewborn(page: Page, values: { givenName: string; nationalId: string; birthDate: string; weight: string }): Promise<void> {
  // By name: the same in English and Arabic.
  const form = page.getByTestId("register-newborn-form");
  await form.locator("[name='givenName']").fill(values.givenName);
  await form.locator("[name='nationalId']").fill(values.nationalId);
  await form.locator("[name='birthDate']").fill(values.birthDate);
  await form.locator("[name='birthTime']").fill("06:40");
  await form.locator("[name='gender']").selectOption("female");
  await form.locator("[name='birthWeightKg']").fill(values.weight);
}

test.describe("newborns and offline approvals", () => {
  test.skip(!MESSAGING, "the newborn flag and the offline extensions are the national exchange's (messaging protocol)");

  test("a newborn from registration to a decided claim under the mother's coverage", async ({ page, signInAs }) => {
    test.setTimeout(300_000);
    const mother = motherId();
    await signInAs(["front_desk", "billing"]);
    await page.goto(`/patients/${mother}`);
    await expect(page.getByRole("heading", { name: "Newborns" })).toBeVisible();

    // A weight typed in grams is refused in words before anything is saved.
    await fillNewborn(page, { givenName: "Sara", nationalId: BABY, birthDate: clinicDay(-3), weight: "3200" });
    await page.getByRole("button", { name: "Register a newborn" }).click();
    const weight = page.getByTestId("register-newborn-form").getByLabel("Birth weight (kg)");
    await expect(weight).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("register-newborn-form")).toContainText("That looks like grams");
    await shoot(page, "mother-page-grams", async () => {
      await fillNewborn(page, { givenName: "سارة", nationalId: BABY, birthDate: clinicDay(-3), weight: "3200" });
      await page.getByRole("button", { name: "تسجيل مولود" }).click();
      await expect(page.getByTestId("register-newborn-form")).toContainText("يبدو أن هذا بالغرام");
    });

    await fillNewborn(page, { givenName: "Sara", nationalId: BABY, birthDate: clinicDay(-3), weight: "3.2" });
    await page.getByRole("button", { name: "Register a newborn" }).click();
    await page.waitForURL(babyPage(mother));
    const babyUrl = page.url();
    expect(babyUrl).not.toContain(mother);
    // The newborn card (the Card primitive takes no test id): its words on the page.
    const card = page.locator("main");
    await expect(card).toContainText("Baby of");
    await expect(page.getByTestId("newborn-mother")).toHaveText("Amal Mother");
    await expect(card).toContainText("3.2 kg at birth");
    await expect(page.getByTestId("newborn-status")).toContainText("Day 3 of 30");
    await shoot(page, "baby-page", async () => {
      await expect(page.getByTestId("newborn-status")).toContainText(/اليوم (3|٣) من (30|٣٠)/);
    });

    // Eligibility on the mother's coverage, with the newborn flag: in force.
    await page.getByTestId("newborn-check-eligibility").click();
    await expect(page.getByLabel("Insurer and coverage")).toHaveValue(/.+/);
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force", { timeout: 30_000 });

    // The claim: the baby, the mother's coverage (the only one offered), the newborn part of the form.
    await page.goto("/claims/new");
    await pickPatient(page, BABY);
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await expect(page.getByLabel("Coverage", { exact: true }).locator("option:checked")).toContainText("mother's coverage (newborn)");
    await expect(page.getByTestId("newborn-notice")).toContainText("sent on the mother's coverage with the newborn flag");
    await expect(page.getByTestId("newborn-notice")).toContainText("3.2 kg");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R50.9");
    await fillCareSetting(page, "Fever since the night");
    await pickService(page, 1, SERVICES.visit);
    // The birth encounter (guide 6.5: the birth weight only there, decision 120): the visit on the birth date.
    await page.getByLabel("Date of line 1").fill(clinicDay(-3));
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill(SERVICES.visit.price);
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByTestId("newborn-notice").screenshot({ path: path.join(SHOTS, "claim-form-newborn-en-390.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
    await sendClaimForm(page);
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    await page.getByTestId("submitted-open").click();
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
    await page.getByTestId("raw-claim").locator("summary").click();
    const raw = page.getByTestId("raw-claim").locator("pre");
    await expect(raw).toContainText("extension-newborn");
    await expect(raw).toContainText("birth-weight");
    await shoot(page, "newborn-claim-decided", async () => {
      await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete");
    });
  });

  test("refused in words: a baby past its 30 days on the mother's coverage; the portal offers its own coverage", async ({ page, signInAs }) => {
    test.setTimeout(180_000);
    const mother = motherId();
    await signInAs(["front_desk", "billing"]);
    await page.goto(`/patients/${mother}`);
    const older = uniqueNationalId();
    await fillNewborn(page, { givenName: "Huda", nationalId: older, birthDate: clinicDay(-40), weight: "2.9" });
    await page.getByRole("button", { name: "Register a newborn" }).click();
    await page.waitForURL(babyPage(mother));
    const baby = page.url().split("/").pop()!;
    await expect(page.getByTestId("newborn-status")).toContainText("The baby needs a coverage of its own");
    await expect(page.getByTestId("newborn-add-coverage")).toHaveAttribute("href", "#add-coverage");
    await shoot(page, "baby-day-40", async () => {
      await expect(page.getByTestId("newborn-status")).toContainText("يحتاج المولود إلى تغطية خاصة به");
    });

    // Eligibility on the mother's coverage for that baby: a field error, nothing sent.
    await page.goto(`/eligibility?patient=${baby}`);
    const coverage = page.getByLabel("Insurer and coverage");
    await coverage.selectOption({ index: 1 });
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await expect(coverage).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("main")).toContainText("more than 30 days old");

    // The claim form says it before the sender tries, and refuses the send in words.
    await page.goto("/claims/new");
    await pickPatient(page, older);
    await expect(page.getByTestId("newborn-notice")).toContainText("The baby needs a coverage of its own");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R50.9");
    await fillCareSetting(page, "Fever since the night");
    await pickService(page, 1, SERVICES.visit);
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill(SERVICES.visit.price);
    await page.getByRole("button", { name: "Submit claim" }).click();
    await expect(page.getByLabel("Coverage", { exact: true })).toHaveAttribute("aria-invalid", "true", { timeout: 30_000 });
    await expect(page.locator("main")).toContainText("more than 30 days old on a service date");
    expect(page.url()).not.toContain("submitted=");
  });

  test("offline: an eligibility recorded at the desk and an authorization given offline, claimed later and decided", async ({ page, signInAs }) => {
    test.setTimeout(240_000);
    const mother = motherId();
    await signInAs(["front_desk", "billing"]);
    await page.goto(`/patients/${mother}`);
    const reference = `OFF-EL-${Date.now().toString(36).toUpperCase()}`;
    const form = page.getByTestId("offline-eligibility-form");
    await form.getByLabel("Coverage").selectOption({ index: 1 });
    // Without its reference: a field error in words.
    await form.getByRole("button", { name: "Record an offline eligibility" }).click();
    await expect(form).toContainText("Enter the reference the insurer gave.");
    await form.getByLabel("Insurer's reference").fill(reference);
    await form.getByLabel("Date given").fill(clinicDay());
    await form.getByRole("button", { name: "Record an offline eligibility" }).click();
    await expect(page.getByTestId("offline-eligibilities")).toContainText(reference);
    await shoot(page, "offline-eligibility", async () => {
      await expect(page.getByTestId("offline-eligibilities")).toContainText(reference);
    });

    // Later, billing: an MRI (needs an authorization) the insurer authorized offline.
    await page.goto("/claims/new");
    await pickPatient(page, MOTHER);
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R51");
    await fillCareSetting(page, "Headache since the delivery");
    await pickService(page, 1, SERVICES.mri);
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill(SERVICES.mri.price);
    await page.getByTestId("offline-toggle").click();
    const offline = page.getByTestId("offline-authorization");
    await offline.getByLabel("Offline authorization reference").fill("OFF-PA-4410");
    await offline.getByLabel("Date of the offline authorization").fill(clinicDay());
    await sendClaimForm(page);
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    await page.getByTestId("submitted-open").click();
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
    await page.getByTestId("raw-claim").locator("summary").click();
    const raw = page.getByTestId("raw-claim").locator("pre");
    await expect(raw).toContainText("extension-eligibility-offline-reference");
    await expect(raw).toContainText(reference);
    await expect(raw).toContainText("extension-authorization-offline-date");
    await expect(raw).toContainText("OFF-PA-4410");
    await shoot(page, "offline-claim-decided", async () => {
      await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete");
    });

    // Back at the desk (decision 120): the reference a sent claim carries can no longer be removed;
    // one recorded by mistake is corrected, then removed.
    await page.goto(`/patients/${mother}`);
    const recorded = page.getByTestId("offline-eligibilities");
    const carried = recorded.getByRole("listitem").filter({ hasText: reference });
    page.once("dialog", (dialog) => void dialog.accept());
    await carried.getByRole("button", { name: "Remove" }).click();
    await expect(carried).toContainText("A claim already carries this offline eligibility: it can no longer be corrected or removed.");
    const mistake = reference.replace("OFF-EL-", "OFF-TY-");
    await form.getByLabel("Coverage").selectOption({ index: 1 });
    await form.getByLabel("Insurer's reference").fill(mistake);
    await form.getByLabel("Date given").fill(clinicDay());
    await form.getByRole("button", { name: "Record an offline eligibility" }).click();
    const wrong = recorded.getByRole("listitem").filter({ hasText: mistake });
    await expect(wrong).toHaveCount(1);
    await wrong.getByRole("button", { name: "Correct" }).click();
    const fixed = reference.replace("OFF-EL-", "OFF-FX-");
    await wrong.getByLabel("Insurer's reference").fill(fixed);
    await wrong.getByRole("button", { name: "Save" }).click();
    const corrected = recorded.getByRole("listitem").filter({ hasText: fixed });
    await expect(corrected).toHaveCount(1);
    await expect(recorded.getByRole("listitem").filter({ hasText: mistake })).toHaveCount(0);
    page.once("dialog", (dialog) => void dialog.accept());
    await corrected.getByRole("button", { name: "Remove" }).click();
    await expect(recorded.getByRole("listitem").filter({ hasText: fixed })).toHaveCount(0);
    // The one the claim carries stays.
    await expect(carried).toHaveCount(1);
  });
});

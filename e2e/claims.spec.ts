import type { Page } from "@playwright/test";
import { SERVICES, clinicDay, createPatient, expect, inArabic, markNoReload, pickCode, pickPatient, pickService, screenshot, sendClaimForm, shotFour, stillNoReload, test, fillCareSetting } from "./fixtures";

const SHOTS = "/tmp/claims-shots";

async function fillClaim(page: Page, nationalId: string, price = SERVICES.visit.price) {
  await pickPatient(page, nationalId);
  await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
  await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R51");
  await fillCareSetting(page);
  await pickService(page, 1, SERVICES.visit);
  await page.getByLabel("Quantity of line 1").fill("1");
  await page.getByLabel("Unit price of line 1").fill(price);
}

/** Submits the filled claim form; answers the new claim's id. */
async function submitForm(page: Page): Promise<string> {
  await sendClaimForm(page);
  await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get("submitted")!;
}

// Every test signs in its own billing user and makes its own claims (e2e/fixtures.ts).
test.describe("claims", () => {
  test("submit a claim and watch it go queued → sent → complete without reloading, with the adjudication", async ({ page, signInAs, sandbox }) => {
    await signInAs("billing");
    await page.goto("/claims/new");
    await fillClaim(page, "2087654311");
    await sandbox.faults({ latencyMs: 3_000 });
    const paidId = await submitForm(page);
    await page.goto(`/claims/${paidId}`);
    await markNoReload(page);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /queued|sent/);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "open");
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 45_000 });
    expect(await stillNoReload(page)).toBe(true);
    const steps = await page.getByTestId("timeline").locator("li").allTextContents();
    expect(steps.join(" ")).toMatch(/Waiting to send[\s\S]*Sent[\s\S]*Approved/);
    await expect(page.getByTestId("adjudication-table")).toContainText(SERVICES.visit.code);
    await expect(page.getByTestId("claim-insurer")).not.toContainText("payer-");
    await expect(page.getByTestId("eligible").first()).toHaveText(`${SERVICES.visit.price}.00`);
    await expect(page.getByTestId("benefit-total")).not.toHaveText("—");
    await expect(page.getByTestId("payment")).toContainText(/\d/);
    await expect(page.getByTestId("request-ids").locator("li").first()).toBeVisible();
    await page.getByTestId("raw-claim").locator("summary").click();
    await expect(page.getByTestId("raw-claim").locator("pre")).toContainText('"resourceType": "Claim"');
    // The disposition in the page's language; the platform's own text as a secondary line when it differs.
    await expect(page.getByTestId("disposition-text-words")).toHaveText("Claim approved according to the plan's benefits");
    await expect(page.getByTestId("disposition-text-platform")).toHaveText("Claim adjudicated and paid according to the plan");
    // Named as staff say it (docs/decisions/122): a short number in the heading, the tab and the breadcrumb; patient, service and day beside.
    const number = (await page.getByTestId("claim-number").textContent())!.trim();
    expect(number).toMatch(/^C-\d+$/);
    await expect(page).toHaveTitle(new RegExp(`Claim ${number}`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(number);
    await expect(page.getByRole("heading", { level: 1 })).not.toContainText(paidId.slice(0, 8));
    // Found by search: its number, its identifier; a search that matches nothing says so.
    const identifier = (await page.getByTestId("claim-identifier").textContent())!.trim();
    for (const q of [number, identifier]) {
      await page.goto(`/claims?q=${encodeURIComponent(q)}`);
      await expect(page.getByTestId("claim-row")).toHaveCount(1);
      await expect(page.locator(`[data-testid="claim-row"][data-id="${paidId}"]`).getByTestId("claim-number")).toHaveText(number);
    }
    await shotFour(page, "/tmp/shots-names", "claims-list");
    await page.goto("/claims?q=C-0");
    await expect(page.getByTestId("claims-table")).toContainText("No claim matches “C-0”");
    await page.goto(`/claims/${paidId}`);
    await shotFour(page, "/tmp/shots-names", "claim-detail");
    await screenshot(page, SHOTS, "detail-en.png");
    await screenshot(page, "docs/screenshots/19", "claim-en.png");
    await inArabic(page, async () => {
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByTestId("disposition-text-words")).toHaveText("تمت الموافقة على المطالبة وفق منافع الخطة");
      await expect(page.getByTestId("disposition-text-platform")).toHaveText("Claim adjudicated and paid according to the plan");
      await expect(page.getByTestId("disposition-text-platform")).toHaveAttribute("dir", "auto");
      // The service in words beside its code.
      await expect(page.getByTestId("adjudication-table")).toContainText(SERVICES.visit.ar);
      await screenshot(page, SHOTS, "detail-ar.png");
      await screenshot(page, "docs/screenshots/19", "claim-ar.png");
    });
  });

  test("copy → the duplicate warning; 20 drafts submitted at once with a truthful progress bar", async ({ page, signInAs }) => {
    test.setTimeout(240_000);
    await signInAs("billing");
    await page.goto("/claims/new");
    // 100.00 each: the 21 claims stay within Omar's consultation benefit, which the front desk's
    // estimate journey (e2e/scrubber.spec.ts) still needs after this one.
    await fillClaim(page, "2087654311", "100");
    const paidId = await submitForm(page);
    await page.goto(`/claims/${paidId}`);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 45_000 });
    const drafts: string[] = [];
    for (let n = 0; n < 20; n++) {
      await page.goto(`/claims/${paidId}`);
      await page.getByTestId("copy-claim").click();
      await page.waitForURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
      drafts.push(new URL(page.url()).searchParams.get("draft")!);
      if (n === 0) await expect(page.getByTestId("duplicate-warning")).toContainText("may already have been submitted");
    }
    await page.goto("/claims?status=draft");
    await expect(page.getByTestId("chip-draft")).toContainText(/\d+/);
    for (const id of drafts) await page.locator(`[data-testid="claim-row"][data-id="${id}"] input[type="checkbox"]`).check();
    await page.getByTestId("submit-selected").click();
    // All 20 repeat a paid claim: the warning asks first, nothing was sent.
    await expect(page.getByTestId("duplicate-warning")).toContainText("20 drafts look already claimed");
    await page.getByTestId("confirm-duplicates").click();
    await page.waitForURL(/batch=[0-9a-f-]{36}/);
    await markNoReload(page);
    const bar = page.getByTestId("batch-progress");
    await expect(bar).toHaveAttribute("data-total", "20");
    // Server-rendered first figures: never "0 of 0"; the list now shows the batch, not the Draft filter.
    await expect(bar).not.toContainText("0 of 0");
    expect(new URL(page.url()).searchParams.get("status")).toBeNull();
    await expect(page.getByTestId("claim-row")).toHaveCount(20);
    await expect(bar).toHaveAttribute("data-done", "20", { timeout: 120_000 });
    await expect(bar.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "20");
    // The rows follow too (the list is a live query): none is still waiting to send, without a reload.
    await expect(page.locator('[data-testid="claim-row"][data-status="queued"]')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByTestId("claim-row")).toHaveCount(20);
    expect(await stillNoReload(page)).toBe(true);
    // The batch lives in the URL and the database: a reload shows the same bar.
    await page.reload();
    await expect(page.getByTestId("batch-progress")).toHaveAttribute("data-done", "20");
    await page.goto("/claims");
    // Insurers appear by their names, in the list and in the filter, never as platform ids.
    await expect(page.getByTestId("claim-row").first()).toBeVisible();
    await expect(page.getByTestId("claim-row").filter({ hasText: "payer-" })).toHaveCount(0);
    await expect(page.locator('select[name="insurer"] option', { hasText: "payer-" })).toHaveCount(0);
    await screenshot(page, SHOTS, "list-en.png");
    await inArabic(page, async () => {
      await page.reload();
      await screenshot(page, SHOTS, "list-ar.png");
    });
  });

  test("a claim the platform rejects appears in the work queue, is fixed and resubmitted (linked both ways)", async ({ page, signInAs }) => {
    await signInAs("billing");
    await page.goto("/claims/new");
    await fillClaim(page, "1000000003"); // registered coverage unknown to the platform → ERR-002
    const rejectedId = await submitForm(page);
    // The confirmation turns (live) into a refusal: why, and links to the claim and the work queue.
    await expect(page.getByTestId("submitted-refused")).toContainText("The exchange rejected this claim", { timeout: 30_000 });
    await expect(page.getByTestId("submitted-reason")).toContainText("ERR-002");
    await expect(page.getByTestId("submitted-open")).toHaveAttribute("href", `/claims/${rejectedId}`);
    await expect(page.getByTestId("submitted-work-queue")).toHaveAttribute("href", "/claims/work-queue");
    await page.goto(`/claims/${rejectedId}`);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "rejected", { timeout: 30_000 });
    await page.goto("/claims/work-queue");
    const item = page.locator(`[data-testid="work-item"][data-id="${rejectedId}"]`);
    await expect(item).toContainText("ERR-002");
    await expect(item).toContainText("The insurer has no coverage for this patient");
    // The item is named by the claim's label, not a UUID fragment.
    await expect(item).toContainText(/C-\d+ · /);
    await shotFour(page, "/tmp/shots-names", "work-queue");
    await screenshot(page, SHOTS, "work-queue-en.png");
    await inArabic(page, async () => {
      await page.reload();
      await screenshot(page, SHOTS, "work-queue-ar.png");
    });
    await item.getByTestId("fix-claim").click();
    await page.waitForURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
    const fixId = new URL(page.url()).searchParams.get("draft")!;
    expect(fixId).not.toBe(rejectedId);
    // Decision 123: the form says which claim it fixes (patient, service, date) and the payer's reason, above the form.
    const fixing = page.getByTestId("fixing-notice");
    await expect(fixing).toContainText("Fixing a claim the payer rejected");
    await expect(page.getByTestId("fixing-patient")).not.toHaveText("");
    await expect(page.getByTestId("fixing-service")).toContainText(SERVICES.visit.code);
    await expect(page.getByTestId("fixing-date")).toHaveText(/\d{4}/);
    await expect(page.getByTestId("fixing-number")).toHaveText(/^C-\d+$/);
    await expect(page.getByTestId("fixing-reason")).toContainText("ERR-002");
    const [notice, form] = [await fixing.boundingBox(), await page.getByTestId("claim-form").boundingBox()];
    expect(notice!.y).toBeLessThan(form!.y);
    await screenshot(page, SHOTS, "fixing-en-1280.png");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, SHOTS, "fixing-en-390.png");
    await inArabic(page, async () => {
      await page.reload();
      await expect(fixing).toContainText("تصحيح مطالبة رفضها الدافع");
      await expect(page.getByTestId("fixing-reason")).toContainText("ERR-002");
      await screenshot(page, SHOTS, "fixing-ar-390.png");
      await page.setViewportSize({ width: 1280, height: 900 });
      await screenshot(page, SHOTS, "fixing-ar-1280.png");
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Change patient" }).click();
    await pickPatient(page, "1048573628");
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await submitForm(page);
    await page.goto(`/claims/${fixId}`);
    await expect(page.getByTestId("replacement-links")).toContainText(/Replaces the rejected claim C-\d+ · /);
    await page.goto(`/claims/${rejectedId}`);
    await expect(page.getByTestId("replacement-links")).toContainText(/Resubmitted as C-\d+ · /);
    await page.goto("/claims/work-queue");
    await expect(page.locator(`[data-testid="work-item"][data-id="${rejectedId}"]`)).toHaveCount(0);
  });

  test("the unit price starts at the payer's contract price (editable, a typed price kept); without an eligibility answer the patient's share is unknown (decision 123)", async ({ page, signInAs }) => {
    test.setTimeout(180_000);
    const patient = createPatient(); // payer-rimal; no eligibility answer on file
    await signInAs("billing");
    await page.goto("/claims/new");
    await pickPatient(page, patient.nationalId);
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await pickService(page, 1, SERVICES.visit);
    const price = page.getByLabel("Unit price of line 1");
    const hint = page.getByTestId("item-0-contract-price");
    await expect(price).toHaveValue(`${SERVICES.visit.price}.00`);
    await expect(hint).toContainText("Contract price");
    await expect(hint).not.toHaveAttribute("data-differs");
    const shares = page.getByTestId("live-shares");
    await expect(shares.getByTestId("live-total-unknown")).toHaveText("Unknown until an eligibility answer");
    await expect(shares.getByTestId("live-shares-no-answer")).toContainText("unknown, not zero");
    await expect(shares.getByTestId("live-shares-patient-pays")).toContainText("unknown until an eligibility answer");
    await expect(shares.getByTestId("live-total-patient")).toHaveCount(0);
    // A price typed by the user stays when the line changes again (another date asks the contract again).
    await price.fill("275");
    await expect(hint).toHaveAttribute("data-differs", "true");
    await expect(hint).toContainText("Not the contract price");
    await page.getByLabel("Date of line 1").fill(clinicDay(-1));
    await expect(hint).toBeVisible();
    await page.waitForTimeout(800);
    await expect(price).toHaveValue("275");
    await screenshot(page, SHOTS, "contract-price-en-1280.png");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("items-editor").scrollIntoViewIfNeeded();
    await screenshot(page, SHOTS, "contract-price-en-390.png");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\?draft=/);
    await inArabic(page, async () => {
      await page.reload();
      await expect(page.getByLabel("سعر وحدة السطر 1")).toHaveValue("275");
      await expect(hint).toContainText("سعر العقد");
      await expect(shares.getByTestId("live-total-unknown")).toHaveText("غير معروفة حتى يصل رد الأهلية");
      await screenshot(page, SHOTS, "contract-price-ar-1280.png");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId("items-editor").scrollIntoViewIfNeeded();
      await screenshot(page, SHOTS, "contract-price-ar-390.png");
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  });

  test("reconcile with the platform: the patient's claims there, linked to the portal's records", async ({ page, signInAs, newClaim }) => {
    // Two claims of this test, sent by the clinic's own system through the exchange API.
    const claims = [await newClaim({ nationalId: "2087654311" }), await newClaim({ nationalId: "2087654311" })];
    await signInAs("billing");
    for (const claim of claims) {
      await page.goto(`/claims/${claim.id}`);
      await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /sent|pended|complete|partial|denied/, { timeout: 45_000 });
    }
    await page.goto("/claims/reconcile");
    await page.getByTestId("reconcile-patient").fill("2087654311");
    await page.getByTestId("reconcile-search").click();
    await expect(page.getByTestId("reconcile-row").first()).toBeVisible({ timeout: 20_000 });
    const table = page.getByTestId("reconcile-table");
    for (const claim of claims) await expect(table.locator(`a[href="/claims/${claim.id}"]`)).toBeVisible();
  });

  test("roles: front desk may not open the claims pages", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    for (const url of ["/claims", "/claims/work-queue", "/claims/reconcile"]) {
      const res = await page.goto(url);
      expect(res?.status()).toBe(403);
    }
  });
});

import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { Agent, request as undiciRequest } from "undici";
import { E2E_PORTAL_DATA_DIR } from "../playwright.config";
import { DEMO, expect, signIn, test } from "./fixtures";

const SHOTS = "/tmp/claims-shots";

/** Slows the sandbox (its admin API over mTLS) so the page is seen before the decision arrives. */
async function sandboxLatency(ms: number): Promise<void> {
  const dir = path.join(path.dirname(E2E_PORTAL_DATA_DIR), "sandbox");
  const { adminToken } = JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8")) as { adminToken: string };
  const pem = (name: string) => fs.readFileSync(path.join(dir, "pki", name), "utf8");
  const agent = new Agent({ connect: { ca: pem("ca.pem"), cert: pem("client.pem"), key: pem("client-key.pem") } });
  try {
    const res = await undiciRequest(`https://localhost:${Number(process.env.E2E_PORT ?? 3210) + 6000}/_admin/faults`, {
      method: ms > 0 ? "PUT" : "DELETE",
      dispatcher: agent,
      headers: { "x-sandbox-admin-token": adminToken, "content-type": "application/json" },
      body: ms > 0 ? JSON.stringify({ latencyMs: ms }) : undefined,
    });
    await res.body.text();
    expect(res.statusCode).toBeLessThan(300);
  } finally {
    await agent.close();
  }
}

async function pickPatient(page: Page, query: string) {
  const box = page.getByTestId("patient-search");
  await box.fill(query);
  await expect(page.locator('ul[role="listbox"]:not([hidden]) [role="option"]').first()).toBeVisible();
  await box.press("Enter");
  await expect(page.getByTestId("selected-patient")).toBeVisible();
}

async function pickCode(page: Page, combobox: ReturnType<Page["getByRole"]>, query: string) {
  await combobox.click();
  await combobox.fill(query);
  await expect(page.locator('ul[role="listbox"]:not([hidden]) [role="option"]').first()).toBeVisible();
  await combobox.press("Enter");
}

async function fillClaim(page: Page, nationalId: string, price = "250") {
  await pickPatient(page, nationalId);
  await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
  await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R51");
  await pickCode(page, page.getByRole("combobox", { name: "Service of line 1" }), "99213");
  await page.getByLabel("Quantity of line 1").fill("1");
  await page.getByLabel("Unit price of line 1").fill(price);
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

async function inArabic(page: Page, fn: () => Promise<void>) {
  const url = new URL(page.url());
  await page.context().addCookies([{ name: "cx_locale", value: "ar", domain: url.hostname, path: "/" }]);
  try {
    await fn();
  } finally {
    await page.context().addCookies([{ name: "cx_locale", value: "en", domain: url.hostname, path: "/" }]);
    // The root layout (lang, dir, messages) is not re-rendered by client navigations: reload.
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  }
}

let paidId: string | undefined;
let rejectedId: string | undefined;

test.describe.serial("claims", () => {
  test("submit a claim and watch it go queued → sent → complete without reloading, with the adjudication", async ({ page }) => {
    await signIn(page, DEMO.billing);
    await page.goto("/claims/new");
    await fillClaim(page, "2087654311");
    await sandboxLatency(3_000);
    try {
      await page.getByRole("button", { name: "Submit claim" }).click();
      await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
      paidId = new URL(page.url()).searchParams.get("submitted")!;
      await page.goto(`/claims/${paidId}`);
      await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
      await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /queued|sent/);
      await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "open");
      await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 45_000 });
    } finally {
      await sandboxLatency(0);
    }
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    const steps = await page.getByTestId("timeline").locator("li").allTextContents();
    expect(steps.join(" ")).toMatch(/Waiting to send[\s\S]*Sent[\s\S]*Paid|Complete/);
    await expect(page.getByTestId("adjudication-table")).toContainText("99213");
    await expect(page.getByTestId("eligible").first()).toHaveText("250.00");
    await expect(page.getByTestId("benefit-total")).not.toHaveText("—");
    await expect(page.getByTestId("payment")).toContainText(/\d/);
    await expect(page.getByTestId("request-ids").locator("li").first()).toBeVisible();
    await page.getByTestId("raw-claim").locator("summary").click();
    await expect(page.getByTestId("raw-claim").locator("pre")).toContainText('"resourceType": "Claim"');
    await shot(page, "detail-en.png");
    await inArabic(page, async () => {
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await shot(page, "detail-ar.png");
    });
  });

  test("copy → the duplicate warning; 20 drafts submitted at once with a truthful progress bar", async ({ page }) => {
    test.setTimeout(240_000);
    expect(paidId).toBeTruthy();
    await signIn(page, DEMO.billing);
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
    const bar = page.getByTestId("batch-progress");
    await expect(bar).toHaveAttribute("data-total", "20");
    // Server-rendered first figures: never "0 of 0"; the list now shows the batch, not the Draft filter.
    await expect(bar).not.toContainText("0 of 0");
    expect(new URL(page.url()).searchParams.get("status")).toBeNull();
    await expect(page.getByTestId("claim-row")).toHaveCount(20);
    await expect(bar).toHaveAttribute("data-done", "20", { timeout: 120_000 });
    await expect(bar.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "20");
    // The batch lives in the URL and the database: a reload shows the same bar.
    await page.reload();
    await expect(page.getByTestId("batch-progress")).toHaveAttribute("data-done", "20");
    await page.goto("/claims");
    // Insurers appear by their names, in the list and in the filter, never as platform ids.
    await expect(page.getByTestId("claim-row").first()).toBeVisible();
    await expect(page.getByTestId("claim-row").filter({ hasText: "payer-" })).toHaveCount(0);
    await expect(page.locator('select[name="insurer"] option', { hasText: "payer-" })).toHaveCount(0);
    await shot(page, "list-en.png");
    await inArabic(page, async () => {
      await page.reload();
      await shot(page, "list-ar.png");
    });
  });

  test("a claim the platform rejects appears in the work queue, is fixed and resubmitted (linked both ways)", async ({ page }) => {
    await signIn(page, DEMO.billing);
    await page.goto("/claims/new");
    await fillClaim(page, "1000000003"); // registered coverage unknown to the platform → ERR-002
    await page.getByRole("button", { name: "Submit claim" }).click();
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    rejectedId = new URL(page.url()).searchParams.get("submitted")!;
    await page.goto(`/claims/${rejectedId}`);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "rejected", { timeout: 30_000 });
    await page.goto("/claims/work-queue");
    const item = page.locator(`[data-testid="work-item"][data-id="${rejectedId}"]`);
    await expect(item).toContainText("ERR-002");
    await expect(item).toContainText("no coverage for this patient");
    await shot(page, "work-queue-en.png");
    await inArabic(page, async () => {
      await page.reload();
      await shot(page, "work-queue-ar.png");
    });
    await item.getByTestId("fix-claim").click();
    await page.waitForURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
    const fixId = new URL(page.url()).searchParams.get("draft")!;
    expect(fixId).not.toBe(rejectedId);
    await page.getByRole("button", { name: "Change patient" }).click();
    await pickPatient(page, "1048573628");
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await page.getByRole("button", { name: "Submit claim" }).click();
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    await page.goto(`/claims/${fixId}`);
    await expect(page.getByTestId("replacement-links")).toContainText("Replaces the rejected claim");
    await page.goto(`/claims/${rejectedId}`);
    await expect(page.getByTestId("replacement-links")).toContainText("Resubmitted as");
    await page.goto("/claims/work-queue");
    await expect(page.locator(`[data-testid="work-item"][data-id="${rejectedId}"]`)).toHaveCount(0);
  });

  test("reconcile with the platform: the patient's claims there, linked to the portal's records", async ({ page }) => {
    await signIn(page, DEMO.billing);
    await page.goto("/claims/reconcile");
    await page.getByTestId("reconcile-patient").fill("2087654311");
    await page.getByTestId("reconcile-search").click();
    const rows = page.getByTestId("reconcile-row");
    await expect(rows.first()).toBeVisible({ timeout: 20_000 });
    expect(await rows.count()).toBeGreaterThanOrEqual(21);
    await expect(page.getByTestId("reconcile-table").getByRole("link", { name: "Open in the portal" }).first()).toBeVisible();
  });

  test("roles: front desk may not open the claims pages", async ({ page }) => {
    await signIn(page, DEMO.frontDesk);
    for (const url of ["/claims", "/claims/work-queue", "/claims/reconcile"]) {
      const res = await page.goto(url);
      expect(res?.status()).toBe(403);
    }
  });
});

import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { createUser, expect, markNoReload, shotFour, signIn, stillNoReload, test } from "./fixtures";

/*
 * Managers' dashboards: a claim submitted by billing in another browser and decided by
 * the platform (webhook) shows up on the live board and in the dashboard totals without a reload;
 * every CSV download has exactly the cells of its table.
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "/tmp/dashboard-shots";

/** A full-page screenshot in English and one in Arabic (the cookie the language switch sets). */
async function shotBoth(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-en.png`), fullPage: true });
  const url = new URL(page.url());
  await page.context().addCookies([{ name: "cx_locale", value: "ar", domain: url.hostname, path: "/" }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS, `${name}-ar.png`), fullPage: true });
  await page.context().addCookies([{ name: "cx_locale", value: "en", domain: url.hostname, path: "/" }]);
}

async function decidedClaims(page: Page): Promise<number> {
  let sum = 0;
  for (const status of ["complete", "partial", "denied"]) sum += Number(await page.getByTestId(`live-count-claim-${status}`).getAttribute("data-count"));
  return sum;
}

/** The header's words and each body cell's data value (what the CSV must hold). */
async function tableValues(table: Locator): Promise<string[][]> {
  return table
    .locator("tr")
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.getAttribute("data-value") ?? (cell.textContent ?? "").trim())));
}

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") endCell();
    else if (ch === "\n") {
      endCell();
      rows.push(row);
      row = [];
    } else if (ch !== "\r") cell += ch;
  }
  if (cell || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

const countColumn = async (page: Page) => {
  const rows = await tableValues(page.getByTestId("dashboard-table-insurers"));
  return rows.slice(1).reduce((sum, r) => sum + Number((r[1] ?? "0").replace(/[^\d]/g, "")), 0);
};

test("a claim decided by the platform shows up on the live board and in the totals without a reload", async ({ page: board, context, browser, signInAs, newClaim }) => {
  test.setTimeout(120_000);
  await signInAs("manager");
  await board.goto("/dashboard/live");
  await expect(board.getByTestId("live-connection")).toContainText("Live");
  const boardBefore = await decidedClaims(board);

  const dashboard = await context.newPage();
  await dashboard.goto("/dashboard");
  await expect(dashboard.getByTestId("dashboard-widget-insurers")).toBeVisible();
  const totalsBefore = (await dashboard.getByTestId("dashboard-table-insurers").count()) ? await countColumn(dashboard) : 0;
  // Headline figures: eight tiles, each with its change against the previous period in words.
  await expect(dashboard.getByTestId("kpi-tiles").locator("[data-testid^='kpi-']")).toHaveCount(8);
  await expect(dashboard.getByTestId("kpi-approvalRate")).toContainText(/%|—/);
  await expect(dashboard.getByTestId("kpi-submitted")).toContainText(/previous 30 days/);
  const adjudicatedBefore = Number(await dashboard.getByTestId("kpi-adjudicated").getAttribute("data-value"));
  for (const p of [board, dashboard]) await markNoReload(p);

  // The clinic's own system sends a claim (exchange API); the platform decides it.
  const claim = await newClaim({ nationalId: "1000000001", unitPrice: 250 });

  await expect.poll(() => decidedClaims(board), { timeout: 60_000 }).toBe(boardBefore + 1);
  await expect(board.getByTestId("live-feed")).toContainText(/Claim .* → (Approved|Partly approved|Not payable — .*|Denied)/);
  // The entry names the patient (read by the server a moment after the event); it links to no
  // claim page, which the manager may not open (docs/decisions/106).
  const entry = board.getByTestId("live-feed").locator(`li[data-submission="${claim.id}"]`).first();
  // Named as staff say it (docs/decisions/122): the short number, then patient · service · day — no UUID fragment.
  await expect(entry.getByTestId("live-feed-patient")).toContainText("Test Patient One · ");
  await expect(entry).toContainText(/Claim C-\d+ → /);
  await expect(entry).not.toContainText(claim.id.slice(0, 8));
  await expect(entry.locator("a")).toHaveCount(0);
  await expect.poll(() => countColumn(dashboard), { timeout: 30_000 }).toBe(totalsBefore + 1);
  await expect(dashboard.getByTestId("kpi-adjudicated")).toHaveAttribute("data-value", String(adjudicatedBefore + 1));
  for (const p of [board, dashboard]) expect(await stillNoReload(p)).toBe(true);
  await shotBoth(board, "live-board");
  await dashboard.close();
  // The claim just decided, as billing sees it (status words, prior authorization, money).
  const billingContext = await browser.newContext();
  try {
    const billing = await billingContext.newPage();
    const user = createUser(["billing"]);
    await signIn(billing, user.email, user.password);
    await billing.goto(`/claims/${claim.id}`);
    await expect(billing.getByTestId("overall-decision")).toBeVisible();
    await shotBoth(billing, "claim");
  } finally {
    await billingContext.close();
  }
});

test("every CSV download has exactly the data of its table: plain decimals, a currency column, ISO dates, UTF-8 with BOM", async ({ page, signInAs }) => {
  await signInAs("manager");
  await page.goto("/dashboard");
  // Reasons in words with the code beside (decision 122): never a bare code such as "ERR-002".
  const reasonCells = page.getByTestId("dashboard-table-reasons").locator("tbody tr th[scope=row]");
  for (const cell of await reasonCells.allTextContents()) expect(cell.trim()).not.toMatch(/^(ERR-\d+|http-\d+|unknown)$/);
  await page.getByTestId("dashboard-widget-reasons").scrollIntoViewIfNeeded();
  await shotFour(page, "/tmp/shots-names", "dashboard");
  for (const name of ["insurers", "categories", "authorizations", "reasons", "trend"]) {
    const widget = page.getByTestId(`dashboard-widget-${name}`);
    await expect(widget).toBeVisible();
    const table = page.getByTestId(`dashboard-table-${name}`);
    if (!(await table.count())) continue;
    const href = await page.getByTestId(`dashboard-csv-${name}`).getAttribute("href");
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("text/csv");
    const text = await res.text();
    expect(text.startsWith("\uFEFF")).toBe(true);
    const csv = parseCsv(text);
    const values = await tableValues(table);
    const money = ["insurers", "categories", "trend"].includes(name);
    expect(csv.map((row) => (money ? row.slice(0, -1) : row))).toEqual(values);
    if (money) {
      expect(csv[0]!.at(-1)).toBe("Currency");
      for (const row of csv.slice(1)) {
        expect(row.at(-1)).toBe("SAR");
        for (const amount of row.slice(2, -1)) expect(amount).toMatch(/^-?\d+\.\d{2}$/);
      }
    }
    if (name === "trend") for (const row of csv.slice(1)) expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }
  // First-load JavaScript of the dashboard, as the browser received it (compressed bytes).
  await page.goto("/dashboard");
  await page.waitForLoadState("networkidle").catch(() => undefined);
  const js = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((r) => r.initiatorType === "script" || r.name.endsWith(".js"))
      .reduce((a, r) => ({ encoded: a.encoded + r.encodedBodySize, decoded: a.decoded + r.decodedBodySize }), { encoded: 0, decoded: 0 }),
  );
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.writeFileSync(path.join(SHOTS, "first-load-js.json"), JSON.stringify(js));
  expect(js.encoded).toBeLessThan(180 * 1024);
  await shotBoth(page, "dashboard");
});

test("only managers reach the dashboard and its export", async ({ page, signInAs }) => {
  await signInAs("billing");
  const res = await page.request.get("/dashboard/export?table=insurers");
  expect(res.status()).toBe(403);
  const pageRes = await page.goto("/dashboard");
  expect(pageRes?.status()).toBe(403);
});

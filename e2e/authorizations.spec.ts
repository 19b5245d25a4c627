import type { Page } from "@playwright/test";
import { BASE_URL, SERVICES, expect, fillAuthorizationRequest, inArabic, markNoReload, pdfBytes, pickCode, pickPatient, pickService, screenshot, sendClaimForm, stillNoReload, test } from "./fixtures";

/** A JPEG drawn by the browser itself (canvas), as bytes. */
async function jpegFromCanvas(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 48;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#1e78c8";
    ctx.fillRect(0, 0, 64, 48);
    ctx.fillStyle = "#fff";
    ctx.fillRect(16, 12, 32, 24);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/jpeg", 0.9));
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  });
}

/** Drops files on the drop zone the way a browser does (a real DataTransfer with File objects). */
async function dropFile(page: Page, name: string, type: string, bytes: number[]) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, type, bytes }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name, { type }));
      return dt;
    },
    { name, type, bytes },
  );
  await page.getByTestId("dropzone").dispatchEvent("drop", { dataTransfer });
}

/** Submits the filled request; answers the authorization's id once the platform has approved it. */
async function submitAndWaitForApproval(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Submit authorization request" }).click();
  await page.waitForURL(/\/authorizations\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
  return page.url().split("/").pop()!;
}

/** An amount as the pages write it in English: 2,000.30. */
const riyals = (amount: number) => amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

// Every test signs in its own user and makes its own requests (e2e/fixtures.ts).
test.describe("prior authorization", () => {
  test("front desk: upload a PDF and an image, submit, and see the decision arrive without reloading", async ({ page, signInAs, sandbox }) => {
    await signInAs("front_desk");
    await page.goto("/authorizations/new");
    await fillAuthorizationRequest(page);
    // Decision 123: each line shows the payer's contract price; the MRI at its contract price is not flagged.
    await expect(page.getByTestId("item-0-contract-price")).toContainText("Contract price");
    await expect(page.getByTestId("item-0-contract-price")).not.toHaveAttribute("data-differs");
    // Totals are computed exactly.
    await page.getByRole("button", { name: "+ Add service" }).click();
    await pickService(page, 2, SERVICES.bloodCount);
    // The new line's price box starts at the contract price (editable).
    await expect(page.getByLabel("Unit price of line 2")).not.toHaveValue("");
    await page.getByLabel("Quantity of line 2").fill("3");
    await page.getByLabel("Unit price of line 2").fill("0.1");
    await expect(page.getByTestId("item-1-contract-price")).toHaveAttribute("data-differs", "true");
    await expect(page.getByTestId("item-1-total")).toHaveText("0.30");
    await expect(page.getByTestId("items-total")).toHaveText(riyals(Number(SERVICES.mri.price) + 0.3));
    await page.getByRole("button", { name: "Remove line 2" }).click();
    await expect(page.getByTestId("items-total")).toHaveText(riyals(Number(SERVICES.mri.price)));

    await page.getByTestId("file-input").setInputFiles({ name: "MRI referral.pdf", mimeType: "application/pdf", buffer: pdfBytes("MRI referral") });
    await dropFile(page, "knee photo.jpg", "image/jpeg", await jpegFromCanvas(page));
    await expect(page.getByTestId("attachment-item")).toHaveCount(2);
    await expect(page.getByTestId("attachments")).toContainText("MRI referral.pdf");
    await expect(page.getByRole("img", { name: "Preview of knee photo.jpg" })).toBeVisible();
    await expect(page.getByTestId("attachment-status")).toContainText("attached");

    // The platform answers slowly this time: the page shows the request waiting first.
    await sandbox.faults({ latencyMs: 4_000 });
    await page.getByRole("button", { name: "Submit authorization request" }).click();
    await page.waitForURL(/\/authorizations\/[0-9a-f-]{36}$/);
    // Mark this document: a reload would lose the mark.
    await markNoReload(page);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /queued|sent/);
    await expect(page.getByTestId("waiting-note")).toBeVisible();
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "open");
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    await expect(page.getByTestId("status-badge")).toContainText("Approved");
    expect(await stillNoReload(page)).toBe(true);
    await expect(page.getByTestId("preauth-ref")).toContainText(/PA-/);
    // Named by a short number (docs/decisions/122) and found on the list by the payer's reference.
    const authId = new URL(page.url()).pathname.split("/").pop()!;
    const number = (await page.getByTestId("authorization-number").textContent())!.trim();
    expect(number).toMatch(/^A-\d+$/);
    const ref = (await page.getByTestId("preauth-ref").textContent())!.trim();
    await page.goto(`/authorizations?q=${encodeURIComponent(ref)}`);
    await expect(page.getByTestId("authorization-number")).toHaveText([number]);
    await expect(page.getByTestId("authorizations-table").locator(`a[href="/authorizations/${authId}"]`)).toBeVisible();
    await page.goto("/authorizations?q=PA-NOT-THERE");
    await expect(page.getByTestId("authorizations-table")).toContainText("No authorization matches “PA-NOT-THERE”");
    await page.goto(`/authorizations/${authId}`);
    await expect(page.getByTestId("decision-table")).toContainText(SERVICES.mri.code);
    // The plan pays 80 % of the MRI (a 20 % share, no deductible for this patient).
    await expect(page.getByTestId("decision-benefit-total")).toHaveText(riyals(Number(SERVICES.mri.price) * 0.8));
    await expect(page.getByTestId("attachment-list").getByRole("link")).toHaveCount(2);
    // The disposition in the page's language; in Arabic the platform's own text stays as a secondary line.
    await expect(page.getByTestId("disposition-text-words")).toHaveText("Authorization approved in full");
    await expect(page.getByTestId("disposition-text-platform")).toHaveCount(0);
    await screenshot(page, "docs/screenshots/19", "authorization-en.png");
    // Messaging: the exchange answered by our identifier only (decision 073); queued → approved on the timeline.
    if (process.env.E2E_PLATFORM_PROTOCOL === "messaging") await screenshot(page, "docs/screenshots/29", "authorization-identifier-only-timeline.png");
    await inArabic(page, async () => {
      await expect(page.getByTestId("disposition-text-words")).toHaveText("تمت الموافقة على طلب الموافقة المسبقة بالكامل");
      await expect(page.getByTestId("disposition-text-platform")).toHaveText("Authorization approved in full");
      await expect(page.getByTestId("decision-table")).toContainText(SERVICES.mri.ar);
      await screenshot(page, "docs/screenshots/19", "authorization-ar.png");
    });

    // The download: attachment disposition, nosniff, the stored type.
    const href = await page.getByTestId("attachment-list").getByRole("link").first().getAttribute("href");
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; .*filename\*=UTF-8''MRI%20referral\.pdf/);
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect((await response.body()).subarray(0, 5).toString()).toBe("%PDF-");
  });

  test("an 11 MB file and a text file renamed .pdf are refused clearly; nothing else in the form is lost", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await page.goto("/authorizations/new");
    await fillAuthorizationRequest(page, "2500.50");
    await page.getByTestId("file-input").setInputFiles({ name: "huge scan.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(11 * 1024 * 1024, 0x25) });
    await expect(page.getByTestId("attachment-errors")).toContainText("“huge scan.pdf” is larger than 10.0 MB and was not attached.");
    await page.getByTestId("file-input").setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("Just some notes, not a PDF.\n") });
    await expect(page.getByTestId("attachment-errors")).toContainText("“notes.pdf” is not a PDF, JPEG or PNG file");
    await expect(page.getByTestId("attachment-item")).toHaveCount(0);
    // Everything typed is still there.
    await expect(page.getByTestId("selected-patient")).toBeVisible();
    await expect(page.getByTestId("diagnoses")).toContainText("M54.5");
    await expect(page.getByLabel("Unit price of line 1")).toHaveValue("2500.50");
    await expect(page.getByTestId("items-total")).toHaveText("2,500.50");
    // The server refuses an oversized body by itself too (413 with a clear JSON message).
    const res = await page.request.post("/api/attachments", { data: Buffer.alloc(10 * 1024 * 1024 + 1, 0x25), headers: { "content-type": "application/octet-stream", origin: new URL(page.url()).origin } });
    expect(res.status()).toBe(413);
    expect((await res.json()) as Record<string, unknown>).toMatchObject({ error: "payload_too_large", reason: "tooLarge", message: expect.stringContaining("10 MB") });
  });

  test("a draft survives a reload", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await page.goto("/authorizations/new");
    await pickPatient(page, "1000000001");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R51");
    await page.getByLabel("Unit price of line 1").fill("123.45");
    await page.getByTestId("file-input").setInputFiles({ name: "letter.pdf", mimeType: "application/pdf", buffer: pdfBytes("Letter") });
    await expect(page.getByTestId("attachment-item")).toHaveCount(1);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByTestId("form-status")).toContainText("Draft saved");
    await expect(page).toHaveURL(/\/authorizations\/new\?draft=[0-9a-f-]{36}$/);
    await page.reload();
    await expect(page.getByTestId("selected-patient")).toContainText("Test Patient One");
    await expect(page.getByTestId("diagnoses")).toContainText("R51");
    await expect(page.getByLabel("Unit price of line 1")).toHaveValue("123.45");
    await expect(page.getByTestId("attachment-item")).toHaveCount(1);
    await expect(page.getByTestId("attachments")).toContainText("letter.pdf");
    // It is listed as a draft.
    await page.goto("/authorizations?status=draft");
    await expect(page.getByTestId("authorizations-table").getByTestId("status-badge").first()).toHaveAttribute("data-status", "draft");
  });

  test("billing creates a claim from the approved authorization and submits it", async ({ page, signInAs }) => {
    // One user at both desks: requests the authorization, then claims it.
    await signInAs(["front_desk", "billing"]);
    await page.goto("/authorizations/new");
    await fillAuthorizationRequest(page);
    const approvedId = await submitAndWaitForApproval(page);
    await page.goto(`/authorizations/${approvedId}`);
    const ref = (await page.getByTestId("preauth-ref").textContent())?.trim();
    expect(ref).toMatch(/^PA-/);
    await page.getByRole("button", { name: "Create claim from this authorization" }).click();
    await page.waitForURL(/\/claims\/new\?draft=[0-9a-f-]{36}$/);
    await expect(page.getByTestId("claim-form")).toBeVisible();
    await expect(page.getByTestId("preauth-ref")).toContainText(ref!);
    await expect(page.getByTestId("selected-patient")).toContainText("Test Patient One");
    await expect(page.getByTestId("diagnoses")).toContainText("M54.5");
    await expect(page.getByTestId("items-total")).toHaveText(riyals(Number(SERVICES.mri.price)));
    await sendClaimForm(page);
    await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", /queued|sent|pended|complete/);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 45_000 });
    await expect(page.getByText(ref!)).toBeVisible();
  });

  test("roles: the manager may download but not open the authorization pages; anonymous uploads are refused", async ({ page, request, signInAs }) => {
    const anonymous = await request.post("/api/attachments", { data: pdfBytes("x"), headers: { origin: BASE_URL }, maxRedirects: 0 });
    expect([401, 302, 303, 307]).toContain(anonymous.status());
    await signInAs("manager");
    const res = await page.goto("/authorizations");
    expect(res?.status()).toBe(403);
  });
});

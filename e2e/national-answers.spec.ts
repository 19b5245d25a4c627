import { SandboxAdmin, expect, fillAuthorizationRequest, inArabic, pickCode, pickPatient, screenshot, sendClaimForm, test, fillCareSetting } from "./fixtures";

/**
 * The sandbox answers like a national exchange (its `national` answer style: absolute and
 * identifier-only references, per-item outcome extensions, added items, process notes, an
 * extension the portal does not interpret, network/unit/term on benefits). Eligibility, prior
 * authorization and claim flows must complete in the browser with the right decisions shown.
 */

const SHOTS = process.env.SCREENS_DIR ?? "/work/notes/screens";

test.describe.serial("national answers (sandbox answer style `national`)", () => {
  const sandbox = new SandboxAdmin();
  test.beforeAll(async () => {
    expect(await sandbox.call("PUT", "/_admin/answer-style", { style: "national" })).toEqual({ style: "national" });
  });
  test.afterAll(async () => {
    await sandbox.call("DELETE", "/_admin/answer-style");
    await sandbox.call("DELETE", "/_admin/faults");
  });

  test("eligibility: in force, with network, unit and term; out of network marked; unlimited and counts shown", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await page.goto("/eligibility");
    const box = page.getByRole("combobox", { name: /^patient$/i });
    await box.fill("1000000001");
    await expect(page.getByRole("option").first()).toBeVisible();
    await box.press("ArrowDown");
    await box.press("Enter");
    await expect(page.getByTestId("selected-patient")).toBeVisible();
    await expect(page.getByLabel("Insurer and coverage")).toHaveValue(/.+/);
    await page.getByRole("button", { name: "Check eligibility" }).click();
    await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force");

    const table = page.getByTestId("benefits-table");
    // Every in-network category says so, with its unit and term.
    const consultation = table.locator('[data-category="3"]');
    await expect(consultation.getByTestId("network")).toHaveText("In network");
    await expect(consultation.getByTestId("unit")).toHaveText("Individual");
    await expect(consultation.getByTestId("term")).toHaveText("Per year");
    await expect(consultation.getByTestId("benefit-count")).toHaveText("Visits: 12 allowed");
    // The out-of-network line stands apart from the in-network one of the same category.
    const out = table.locator('[data-category="1"]').filter({ has: page.locator('[data-network="out"]') });
    await expect(out).toHaveCount(1);
    await expect(out.getByTestId("network")).toContainText("Out of network");
    await expect(out.getByTestId("allowed")).toHaveText("SAR 25,000.00");
    // The plan-level lifetime maximum is "unlimited", in words.
    const lifetime = table.locator('[data-category="30"]');
    await expect(lifetime.getByTestId("term")).toHaveText("Lifetime");
    await expect(lifetime.getByTestId("allowed")).toHaveText("Unlimited");
    await expect(table.locator('[data-category="62"]')).toContainText("Send with an authorization request: Medical report");
    await screenshot(page, SHOTS, "eligibility-national-en.png");
    // The stored check (its own page) in Arabic: the same qualifiers, right to left.
    await page.getByRole("link", { name: "Open the printable result" }).click();
    await expect(page).toHaveURL(/\/eligibility\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("eligibility-outcome")).toHaveAttribute("data-outcome", "in_force");
    await inArabic(page, async () => {
      await expect(page.getByTestId("benefits-table").locator('[data-network="out"]')).toContainText("خارج الشبكة");
      await expect(page.getByTestId("benefits-table").locator('[data-category="30"]').getByTestId("allowed")).toHaveText("غير محدود");
      await screenshot(page, SHOTS, "eligibility-national-ar.png");
    });
  });

  test("prior authorization: a price-list reduction comes back as a substitution — billed line rejected, contracted line added — with notes and other data", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await page.goto("/authorizations/new");
    // Price list 2,000.00: asking 2,500.00 is reduced.
    await fillAuthorizationRequest(page, "2500");
    await page.getByRole("button", { name: "Submit authorization request" }).click();
    await page.waitForURL(/\/authorizations\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "partial", { timeout: 30_000 });
    await expect(page.getByTestId("overall-decision")).toContainText("Partly approved");
    await expect(page.getByTestId("preauth-ref")).toContainText(/PA-/);
    await expect(page.getByTestId("preauth-period")).toContainText(/from .* until /);

    const billed = page.getByTestId("adjudication-row");
    await expect(billed).toHaveCount(1);
    await expect(billed.getByTestId("line-decision")).toContainText("Denied");
    await expect(billed.getByTestId("line-reason")).toContainText("Reduced to the price list");
    await expect(billed.getByTestId("line-outcome")).toHaveText("Insurer's outcome: rejected");
    const added = page.getByTestId("added-row");
    await expect(added).toHaveCount(1);
    await expect(added.getByTestId("added-item-label")).toHaveText("Added by the payer · for item 1");
    await expect(added).toContainText("72148");
    await expect(added.getByTestId("line-decision")).toContainText("Approved");
    await expect(added.getByTestId("eligible")).toHaveText("2,000.00");
    // MRI on Rimal Gold: 20% copay.
    await expect(added.getByTestId("share")).toHaveText("400.00");
    await expect(added.getByTestId("benefit")).toHaveText("1,600.00");
    await expect(page.getByTestId("decision-benefit-total")).toHaveText("1,600.00");
    await expect(page.getByTestId("process-note").first()).toContainText("Item 1: Reduced to the price list");
    await expect(page.getByTestId("process-notes").locator('[lang="ar"]')).toHaveCount(1);
    await expect(page.getByTestId("other-data")).toContainText("https://platform.example/fhir/StructureDefinition/episode");
    await expect(page.getByTestId("other-data-entry")).toContainText(/identifier\/episode\|EP-/);
    await expect(page.getByTestId("response-insurance")).toContainText("Coverage/cov-1000000001");
    await screenshot(page, SHOTS, "authorization-national-en.png");
  });

  test("claim: submitted, its answer lost once (ERR-005 on the retry, absolute Location), reconciled and decided with the added line", async ({ page, signInAs }) => {
    test.setTimeout(120_000);
    await signInAs("billing");
    await page.goto("/claims/new");
    await pickPatient(page, "2087654311");
    await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
    await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "R51");
    // Shoulder X-ray, price list 150.00 (X-ray: no other browser test spends this benefit).
    await fillCareSetting(page);
    await pickCode(page, page.getByRole("combobox", { name: "Service of line 1" }), "73030");
    await page.getByLabel("Quantity of line 1").fill("1");
    await page.getByLabel("Unit price of line 1").fill("200");
    await page.getByRole("button", { name: "+ Add service" }).click();
    await pickCode(page, page.getByRole("combobox", { name: "Service of line 2" }), "85025");
    await page.getByLabel("Quantity of line 2").fill("1");
    await page.getByLabel("Unit price of line 2").fill("60");

    // The platform takes the claim but the answer never arrives: the retry meets ERR-005, whose
    // Location is absolute in this style; the portal must still recognise its claim.
    type AdminClaims = { claims: { id: string; identifier: string }[]; receipts: { value: string; count: number }[] };
    const platformClaims = async () => (await sandbox.call("GET", "/_admin/claims")) as AdminClaims;
    const before = (await platformClaims()).claims.length;
    await sandbox.call("PUT", "/_admin/faults", { dropAfterProcessingRate: 1 });
    try {
      await sendClaimForm(page);
      await page.waitForURL(/\/claims\/new\?submitted=[0-9a-f-]{36}$/);
      await expect
        .poll(async () => (await platformClaims()).claims.length, { timeout: 30_000 })
        .toBe(before + 1);
    } finally {
      await sandbox.call("DELETE", "/_admin/faults");
    }
    const id = new URL(page.url()).searchParams.get("submitted")!;
    await page.goto(`/claims/${id}`);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "partial", { timeout: 60_000 });
    // One claim on the platform, received more than once (the retries met ERR-005) — never a second claim.
    const after = await platformClaims();
    expect(after.claims.length).toBe(before + 1);
    const identifier = after.claims[after.claims.length - 1]!.identifier;
    expect(after.receipts.find((r) => r.value === identifier)?.count).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId("claim-identifier")).toHaveText(identifier);

    await expect(page.getByTestId("overall-decision")).toContainText("Partly approved");
    const rows = page.getByTestId("adjudication-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByTestId("line-decision")).toContainText("Denied");
    await expect(rows.nth(0).getByTestId("line-reason")).toContainText("Reduced to the price list");
    await expect(rows.nth(1).getByTestId("line-decision")).toContainText("Approved");
    await expect(rows.nth(1).getByTestId("line-outcome")).toHaveText("Insurer's outcome: approved");
    const added = page.getByTestId("added-row");
    await expect(added).toHaveCount(1);
    await expect(added).toContainText("73030");
    await expect(added.getByTestId("eligible")).toHaveText("150.00");
    await expect(added.getByTestId("share")).toHaveText("15.00");
    await expect(added.getByTestId("benefit")).toHaveText("135.00");
    // 73030: 135.00; 85025 at 60.00 with 10% copay: 54.00.
    await expect(page.getByTestId("benefit-total")).toHaveText("189.00");
    await expect(page.getByTestId("payment-amount")).toContainText("189.00");
    await expect(page.getByTestId("process-notes")).toContainText("replaced by the contracted service");
    await expect(page.getByTestId("other-data")).toContainText("episode");
    await screenshot(page, SHOTS, "claim-national-en.png");
    await inArabic(page, async () => {
      await expect(page.getByTestId("overall-decision")).toContainText("مقبولة جزئيًا");
      await expect(page.getByTestId("added-item-label")).toContainText("أضافها الدافع");
      await expect(rows.nth(0).getByTestId("line-reason")).toContainText("خُفِّض إلى سعر القائمة");
      await screenshot(page, SHOTS, "claim-national-ar.png");
    });
  });
});

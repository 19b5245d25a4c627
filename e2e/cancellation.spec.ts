import { expect, fillAuthorizationRequest, test } from "./fixtures";

test.describe("cancel and status check", () => {
  test("front desk: cancel an approved authorization with a reason; the platform confirms and a status check agrees", async ({ page, signInAs }) => {
    await signInAs("front_desk");
    await page.goto("/authorizations/new");
    await fillAuthorizationRequest(page);
    await page.getByRole("button", { name: "Submit authorization request" }).click();
    await page.waitForURL(/\/authorizations\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "complete", { timeout: 30_000 });

    await page.getByTestId("cancel-submission").click();
    const dialog = page.getByTestId("cancel-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("cancel-confirm")).toBeDisabled();
    await dialog.getByLabel("Service not performed").check();
    await dialog.getByTestId("cancel-confirm").click();
    await expect(page.getByTestId("cancel-result")).toHaveText("Cancelled: the insurer confirmed.");
    await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "cancelled", { timeout: 10_000 });
    await expect(page.getByTestId("cancel-submission")).toHaveCount(0);

    await page.getByTestId("status-check-run").click();
    const result = page.getByTestId("status-check-result");
    await expect(result).toBeVisible({ timeout: 10_000 });
    await expect(result.getByTestId("status-check-platform")).toHaveText("Cancelled");
    await expect(result).toHaveAttribute("data-agree", "true");
  });
});

import { adminCli, expect, test } from "./fixtures";

test.describe("operations", () => {
  test("readiness answers 200 with its checks; metrics need the CLI's token, and a revoked token stops working", async ({ request }) => {
    const ready = await request.get("/api/ready");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { database: "ok", migrations: "ok", platform: "ok" } });

    expect((await request.get("/api/metrics")).status()).toBe(401);
    const { token } = adminCli(["metrics-token:create"]) as { token: string };
    const scrape = await request.get("/api/metrics", { headers: { authorization: `Bearer ${token}` } });
    expect(scrape.status()).toBe(200);
    const text = await scrape.text();
    expect(text).toContain('cx_http_requests_total{family="health",status="200"}');
    expect(text).toMatch(/cx_outbox_submissions\{state="queued"\} \d+/);
    expect(text).toContain('cx_platform_rate_limit{group="claims"} 500');
    adminCli(["metrics-token:revoke"]);
    expect((await request.get("/api/metrics", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  });

  test("an administrator reads System status; other roles get 403", async ({ page, signInAs }) => {
    await signInAs("admin");
    await page.getByRole("link", { name: /System status/ }).click();
    await expect(page.getByRole("heading", { name: "System status", level: 1 })).toBeVisible();
    for (const name of ["Outbox", "Platform calls, last hour (this instance)", "Rate limits, last minute (all instances)", "Last webhook", "Poller backlog", "Client certificates", "Installation"]) {
      await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
    }
    await expect(page.getByText("clinic-001")).toBeVisible();
    await expect(page.getByRole("meter", { name: "Claims" })).toBeVisible();
    const api = await page.request.get("/api/system-status");
    expect(api.status()).toBe(200);
    expect(await api.json()).toMatchObject({ database: { migrations: expect.any(Number) }, rate: expect.any(Array) });
  });

  test("billing staff cannot read the system status", async ({ page, signInAs }) => {
    await signInAs("billing");
    const response = await page.goto("/settings/system-status");
    expect(response?.status()).toBe(403);
    expect((await page.request.get("/api/system-status")).status()).toBe(403);
  });
});

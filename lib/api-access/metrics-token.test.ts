import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { authorizeMetricsScrape, createMetricsToken } from "./metrics-token";

/* GET /api/metrics: a refused scrape is audited once (docs/decisions/094), the log is not flooded. */
describe.each(testDatabases())("metrics scrapes on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("audits each refusal once as metrics.unauthorized, denied, with the reason and never the token; a good token is not audited", async () => {
    const { db } = database;
    const h = (authorization?: string) => new Headers({ ...(authorization ? { authorization } : {}), "x-request-id": "5b0e1a9e-8c1f-4a57-9c9e-2a1d7f6b3c11" });
    expect(await authorizeMetricsScrape(db, h("Bearer cxm_before_any_token"))).toBe(false);
    const { token } = await createMetricsToken(db);
    expect(await authorizeMetricsScrape(db, h())).toBe(false);
    expect(await authorizeMetricsScrape(db, h("Basic eDp5"))).toBe(false);
    expect(await authorizeMetricsScrape(db, h("Bearer cxm_wrong_secret_value"))).toBe(false);
    expect(await authorizeMetricsScrape(db, h(`Bearer ${token}`))).toBe(true);
    const rows = await db.select().from(auditEvents);
    expect(rows.map((r) => [r.action, r.outcome, r.actorKind, r.actorLabel, (r.details as { reason: string }).reason])).toEqual([
      ["metrics.unauthorized", "denied", "anonymous", "metrics", "no_token_configured"],
      ["metrics.unauthorized", "denied", "anonymous", "metrics", "missing_token"],
      ["metrics.unauthorized", "denied", "anonymous", "metrics", "not_bearer"],
      ["metrics.unauthorized", "denied", "anonymous", "metrics", "wrong_token"],
    ]);
    expect(rows.every((r) => r.requestId === "5b0e1a9e-8c1f-4a57-9c9e-2a1d7f6b3c11")).toBe(true);
    expect(JSON.stringify(rows)).not.toContain("cxm_wrong_secret_value");
  });

  it("a burst of 100 refusals writes 100 audit rows and not one log line per request", async () => {
    const { db } = database;
    const before = (await db.select().from(auditEvents)).length;
    const printed: unknown[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation((...args) => void printed.push(args)));
    try {
      for (let i = 0; i < 100; i++) await authorizeMetricsScrape(db, new Headers({ authorization: `Bearer cxm_guess_${i}` }));
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect((await db.select().from(auditEvents)).length - before).toBe(100);
    // At most the once-a-minute junk summary.
    expect(printed.length).toBeLessThanOrEqual(1);
  });
});

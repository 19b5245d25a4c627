import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/testing/databases";
import { parseAuditFilters } from "./filters";
import { audit, auditActions, listAuditEvents } from "./index";

describe.each(testDatabases())("audit log on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
    const base = Date.parse("2026-11-20T08:00:00Z");
    for (let i = 0; i < 120; i++) {
      await audit(database.db, {
        actor: i % 2 ? { kind: "user", id: "u1", email: "billing@clinic.example", roles: ["billing"] } : { kind: "system", name: "worker" },
        action: i % 3 ? "claim.submit" : "auth.sign_in",
        outcome: i % 10 === 0 ? "failure" : "success",
        target: { type: "claim", id: `c${i}` },
        // Pairs share a timestamp to prove the keyset tie-break on id.
        at: new Date(base + Math.floor(i / 2) * 60_000),
      });
    }
  });
  afterAll(async () => database?.dispose());

  it("pages newest first, each row exactly once", async () => {
    const seen: string[] = [];
    let before: { at: Date; id: number } | undefined;
    do {
      const page = await listAuditEvents(database.db, { limit: 7, before });
      seen.push(...page.rows.map((r) => r.targetId!));
      before = page.next;
    } while (before);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect(seen[0]).toBe("c119");
    expect(seen.at(-1)).toBe("c0");
  });

  it("filters by action, actor, outcome and time", async () => {
    const { rows } = await listAuditEvents(database.db, { action: "auth.sign_in", outcome: "failure", limit: 200 });
    expect(rows.every((r) => r.action === "auth.sign_in" && r.outcome === "failure")).toBe(true);
    expect(rows).toHaveLength(4); // i = 0, 30, 60, 90
    const byActor = await listAuditEvents(database.db, { actor: "BILLING@", limit: 200 });
    expect(byActor.rows).toHaveLength(60);
    const windowed = await listAuditEvents(database.db, {
      from: new Date("2026-11-20T08:10:00Z"),
      to: new Date("2026-11-20T08:20:00Z"),
      limit: 200,
    });
    expect(windowed.rows).toHaveLength(20);
    expect(await auditActions(database.db)).toEqual(["auth.sign_in", "claim.submit"]);
  });

  it("treats LIKE wildcards in the actor filter literally", async () => {
    expect((await listAuditEvents(database.db, { actor: "%" })).rows).toHaveLength(0);
  });
});

describe("parseAuditFilters", () => {
  it("reports bad values instead of failing", () => {
    const r = parseAuditFilters({ outcome: "maybe", from: "2026-13-45", before: "x" }, "Asia/Riyadh");
    expect(r.invalid.sort()).toEqual(["before", "from", "outcome"]);
    expect(r.query.outcome).toBeUndefined();
  });
  it("makes the day range inclusive in the clinic's zone", () => {
    const r = parseAuditFilters({ from: "2026-11-20", to: "2026-11-20" }, "Asia/Riyadh");
    expect(r.query.from?.toISOString()).toBe("2026-11-19T21:00:00.000Z");
    expect(r.query.to?.toISOString()).toBe("2026-11-20T21:00:00.000Z");
  });
});

import { describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/testing/databases";
import { authorizationUsage } from "./queries";
import { usageWarnings, type AuthorizationUsage } from "./usage";
import { insertSubmissions } from "@/lib/submissions/testing";
import { authorizationUsageReads } from "@/lib/submissions";
import { provideAuthorizationUsageReads } from "./reads";

// lib/submissions hands its reads over as it loads (lifecycle.ts); given here as the composition would, explicitly.
provideAuthorizationUsageReads(authorizationUsageReads);

const item = (sequence: number, code: string, quantity: number, price = 100) => ({
  sequence,
  productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code }] },
  quantity: { value: quantity },
  unitPrice: { value: price, currency: "SAR" },
  servicedDate: "2026-11-23",
});

describe("usage warnings (pure)", () => {
  const usage: AuthorizationUsage = {
    authorizationId: "a",
    preAuthRef: "PA-1",
    period: { start: "2026-11-01", end: "2026-11-30" },
    services: [{ code: "97110", system: "http://www.ama-assn.org/go/cpt", approvedQuantity: 2, approvedMinor: 20_000, usedQuantity: 1, usedMinor: 10_000, remainingQuantity: 1 }],
    claims: 1,
  };
  it("warns when the claim asks more than remains, for an unauthorized service, and outside the validity period", () => {
    expect(usageWarnings(usage, [{ code: "97110", servicedDate: "2026-11-10", quantity: "1" }])).toEqual([]);
    expect(usageWarnings(usage, [{ code: "97110", servicedDate: "2026-11-10", quantity: "2" }])).toEqual([{ kind: "exceeds", code: "97110", asked: 2, remaining: 1 }]);
    expect(usageWarnings(usage, [{ code: "99213", servicedDate: "2026-11-10", quantity: 1 }])).toEqual([{ kind: "notAuthorized", code: "99213" }]);
    expect(usageWarnings(usage, [{ code: "97110", servicedDate: "2026-12-01", quantity: 1 }])).toEqual([
      { kind: "outsidePeriod", code: "97110", date: "2026-12-01", start: "2026-11-01", end: "2026-11-30" },
    ]);
    // Two lines of the same service add up.
    expect(usageWarnings(usage, [{ code: "97110", servicedDate: "2026-11-10", quantity: 1 }, { code: "97110", servicedDate: "2026-11-11", quantity: 1 }])).toHaveLength(1);
  });
});

describe.each(testDatabases())("authorization usage on $name", (target) => {
  it("an authorization for 2 sessions is used up by two claims; drafts, rejected and the claim being edited do not count", async () => {
    const database = await target.open();
    try {
      const db = database.db;
      const [auth] = await insertSubmissions(db, {
          kind: "preauthorization",
          status: "complete",
          patientNationalId: "1000000001",
          claim: { resourceType: "Claim", use: "preauthorization", item: [item(1, "97110", 2), item(2, "99213", 1)] },
          responseView: {
            preAuthRef: "PA-9",
            preAuthPeriod: { start: "2026-11-01", end: "2026-12-31" },
            items: [
              { sequence: 1, decision: "approved", approvedQuantity: 2, amounts: { eligible: { value: 200, minor: 20_000 } } },
              { sequence: 2, decision: "denied", amounts: {} },
            ],
          },
        });
      const claim = (status: "complete" | "draft" | "rejected" | "sent") =>
        insertSubmissions(db, { kind: "claim", status, patientNationalId: "1000000001", authorizationId: auth!.id, claim: { resourceType: "Claim", use: "claim", item: [item(1, "97110", 1)] } });

      const [first] = await claim("complete");
      let usage = (await authorizationUsage(db, auth!.id))!;
      expect(usage.period).toEqual({ start: "2026-11-01", end: "2026-12-31" });
      expect(usage.services).toEqual([
        { code: "97110", system: "http://www.ama-assn.org/go/cpt", approvedQuantity: 2, approvedMinor: 20_000, usedQuantity: 1, usedMinor: 10_000, remainingQuantity: 1 },
        { code: "99213", system: "http://www.ama-assn.org/go/cpt", approvedQuantity: 0, approvedMinor: null, usedQuantity: 0, usedMinor: 0, remainingQuantity: 0 },
      ]);
      await claim("draft");
      await claim("rejected");
      const [second] = await claim("sent");
      usage = (await authorizationUsage(db, auth!.id))!;
      expect(usage.claims).toBe(2);
      expect(usage.services[0]).toMatchObject({ usedQuantity: 2, remainingQuantity: 0 });
      expect(usageWarnings(usage, [{ code: "97110", servicedDate: "2026-11-30", quantity: 1 }])).toEqual([{ kind: "exceeds", code: "97110", asked: 1, remaining: 0 }]);
      // Editing the second claim: it does not count against itself.
      expect((await authorizationUsage(db, auth!.id, second!.id))!.services[0]!.remainingQuantity).toBe(1);
      expect(first).toBeDefined();
      // Not an authorization, or not decided: no usage.
      expect(await authorizationUsage(db, first!.id)).toBeUndefined();
    } finally {
      await database.dispose();
    }
  });
});

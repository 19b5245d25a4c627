import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-access/credentials";
import { paymentReconciliationInbound } from "@/lib/payments";
import { testDatabases } from "@/lib/testing/databases";
import { handleListClaims } from "./handler";
import { ApiClaimSchema } from "./serialize";
import { insertSubmissions } from "@/lib/submissions/testing";

/** Decision 047: `/v1/claims` shows what remittances paid (`paid`, `remittance`), exact money, in the documented shape. */
describe.each(testDatabases())("GET /v1/claims paid and remittance on $name", (target) => {
  it("a paid claim carries paid + remittance (short-paid flagged); an unpaid one nulls", async () => {
    const database = await target.open();
    try {
      const db = database.db;
      const response = { resourceType: "ClaimResponse", total: [{ category: { coding: [{ code: "benefit" }] }, amount: { value: 80, currency: "SAR" } }] };
      const [paid, unpaid] = await insertSubmissions(db, [
          { kind: "claim", status: "complete", patientNationalId: "1000000001", platformId: "p-1", claim: {}, response, totalMinor: 10_000, currency: "SAR", decidedAt: new Date() },
          { kind: "claim", status: "complete", patientNationalId: "1000000001", platformId: "p-2", claim: {}, response, totalMinor: 10_000, currency: "SAR", decidedAt: new Date() },
        ]);
      const remittance = {
        resourceType: "PaymentReconciliation",
        id: "pr-1",
        status: "active",
        created: "2026-11-23T10:00:00Z",
        paymentDate: "2026-11-23",
        paymentAmount: { value: 79.99, currency: "SAR" },
        paymentIdentifier: { value: "PAY-1" },
        detail: [{ type: { coding: [{ code: "payment" }] }, request: { reference: "Claim/p-1" }, amount: { value: 79.99, currency: "SAR" } }],
      };
      expect(await paymentReconciliationInbound({ db, clock: () => new Date(), pollAfterMs: 1, log: () => {}, source: "webhook" }, remittance)).toBe("applied");
      const { key } = await createApiKey(db, { name: "BI", environment: "sandbox", scopes: ["claims:read"] });
      const res = await handleListClaims(new Request("https://portal.test/v1/claims?status=complete", { headers: { "x-api-key": key } }), { db, environment: "sandbox", ratePerMinute: 1000 });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: Record<string, unknown>[] };
      const byId = new Map(page.data.map((c) => [c.id, c]));
      for (const c of page.data) expect(ApiClaimSchema.safeParse(c).success).toBe(true);
      expect(byId.get(paid!.id)).toMatchObject({ paid: { value: "79.99", currency: "SAR" }, remittance: { id: "PAY-1", date: "2026-11-23", short_paid: true } });
      expect(byId.get(unpaid!.id)).toMatchObject({ paid: null, remittance: null });
    } finally {
      await database.dispose();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimBody, startTestSandbox, tempDataDir, waitFor, type TestSandbox } from "./test-support";

/** The sandbox's payer (sandbox/remittances.ts): remittances through the mailbox, payment notices received, journaled. */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ adjudicationDelayMs: 20 });
});
afterAll(async () => {
  await t.stop();
});

const benefitOf = (response: Record<string, unknown>) =>
  ((response.total as { category: { coding: { code: string }[] }; amount: { value: number } }[]) ?? []).find((x) => x.category.coding[0]!.code === "benefit")!.amount.value;

describe("POST /_admin/remittances and PaymentNotice", () => {
  it("pays adjudicated claims (benefit by default, a given amount as a short payment), via the mailbox; refuses undecided claims and unknown ones without an amount", async () => {
    const submitted = await t.call("POST", "/Claim", { body: claimBody({ use: "claim", patientId: "1000000001", coverageId: "cov-1000000001", items: [{ code: "99213", price: 180 }] }) });
    expect(submitted.status).toBe(202);
    const id = String(submitted.headers.location).split("/").pop()!;
    const refused = await t.admin("POST", "/_admin/remittances", { claims: [{ id }] });
    // Still queued right after the POST (or already decided on a fast machine).
    if (refused.status !== 201) expect(refused.status).toBe(409);
    const decided = await waitFor(async () => {
      const r = await t.call("GET", `/ClaimResponse?request=${id}`);
      const response = (r.body.entry as { resource: Record<string, unknown> }[] | undefined)?.[0]?.resource;
      return response && response.outcome === "complete" ? response : undefined;
    }, 10_000);
    expect((await t.admin("POST", "/_admin/remittances", { claims: [{ id: "unknown-claim" }] })).status).toBe(400);
    expect((await t.admin("POST", "/_admin/remittances", { claims: [] })).status).toBe(400);

    const posted = await t.admin("POST", "/_admin/remittances", { claims: [{ id }, { id: "unknown-claim", amount: 10.25 }], paymentDate: "2026-11-20" });
    expect(posted.status).toBe(201);
    const remittance = posted.body as { id: string; paymentDate: string; paymentAmount: { value: number }; detail: { request: { reference: string }; amount: { value: number } }[] };
    expect(remittance.paymentDate).toBe("2026-11-20");
    expect(remittance.detail.map((d) => d.request.reference)).toEqual([`Claim/${id}`, "Claim/unknown-claim"]);
    expect(remittance.detail[0]!.amount.value).toBe(benefitOf(decided));
    expect(remittance.paymentAmount.value).toBeCloseTo(benefitOf(decided) + 10.25, 2);
    // Readable as the clinic's mail, announced by webhook.
    const read = await t.call("GET", `/PaymentReconciliation/${remittance.id}`);
    expect(read.status).toBe(200);
    const mail = (await t.admin("GET", "/_admin/mail")).body.mail as { id: string; event: string }[];
    expect(mail.find((m) => m.id === remittance.id)?.event).toBe("payment-reconciliation");

    const notice = (status: string, payment = `PaymentReconciliation/${remittance.id}`) => ({
      resourceType: "PaymentNotice",
      id: `pn-${status}`,
      status: "active",
      created: new Date().toISOString(),
      payment: { reference: payment },
      recipient: { identifier: { system: "http://nphies.sa/license/nphies", value: "NPHIES" } },
      amount: { value: remittance.paymentAmount.value, currency: "SAR" },
      paymentStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/paymentstatus", code: status }] },
    });
    const paid = await t.call("POST", "/PaymentNotice", { body: notice("paid") });
    expect(paid.status).toBe(201);
    expect(paid.headers.location).toBe("PaymentNotice/pn-paid");
    const wrongStatus = await t.call("POST", "/PaymentNotice", { body: notice("sent") });
    expect(wrongStatus.status).toBe(400);
    expect(wrongStatus.text).toContain("PaymentNotice.paymentStatus");
    const foreign = await t.call("POST", "/PaymentNotice", { body: notice("paid", "PaymentReconciliation/not-ours") });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain("PaymentNotice.payment");
    const notices = (await t.admin("GET", "/_admin/payment-notices")).body.notices as { paymentId: string; paymentStatus: string; protocol: string }[];
    expect(notices).toEqual([expect.objectContaining({ paymentId: remittance.id, paymentStatus: "paid", protocol: "rest" })]);
  });
});

describe("components, reversals and advances in both answer styles (decision 098)", () => {
  it("states the exchange's components, reverses the latest payment, names the claim by identifier in the national style; refuses what cannot be", async () => {
    const submitted = await t.call("POST", "/Claim", { body: claimBody({ use: "claim", patientId: "1000000001", coverageId: "cov-1000000001", items: [{ code: "99213", price: 180 }] }) });
    const id = String(submitted.headers.location).split("/").pop()!;
    const decided = await waitFor(async () => {
      const r = await t.call("GET", `/ClaimResponse?request=${id}`);
      const response = (r.body.entry as { resource: Record<string, unknown> }[] | undefined)?.[0]?.resource;
      return response && response.outcome === "complete" ? response : undefined;
    }, 10_000);
    const benefit = Math.round(benefitOf(decided) * 100);
    expect((await t.admin("POST", "/_admin/remittances", { claims: [{ id, reverse: true }] })).status).toBe(409);
    expect((await t.admin("POST", "/_admin/remittances", { claims: [{ id, earlyFee: benefit / 100, exchangeFee: 1 }] })).status).toBe(400);

    type Detail = { identifier: { value: string }; predecessor?: { value: string }; type: { coding: { code: string }[] }; request?: { reference?: string; identifier?: { value: string } }; amount: { value: number }; extension?: { url: string; valueMoney: { value: number } }[] };
    for (const style of ["default", "national"] as const) {
      const paid = await t.admin("POST", "/_admin/remittances", { claims: [{ id, earlyFee: 1, exchangeFee: 0.95 }], advance: 500, style });
      expect(paid.status).toBe(201);
      const [line, advance] = paid.body.detail as Detail[];
      expect(line!.amount.value).toBeCloseTo((benefit - 195) / 100, 2);
      expect(line!.extension!.map((e) => [e.url.replace(/^.*extension-/, ""), e.valueMoney.value])).toEqual([
        ["component-payment", benefit / 100],
        ["component-early-fee", 1],
        ["component-nphies-fee", 0.95],
      ]);
      expect(advance).toMatchObject({ type: { coding: [{ code: "advance" }] }, amount: { value: 500 } });
      expect(advance!.request).toBeUndefined();
      expect(style === "national" ? line!.request!.reference : line!.request!.reference?.endsWith(`Claim/${id}`)).toBe(style === "national" ? undefined : true);
      if (style === "national") expect(line!.request!.identifier?.value).toBeTruthy();

      const reversed = await t.admin("POST", "/_admin/remittances", { claims: [{ id, reverse: true }], style });
      expect(reversed.status).toBe(201);
      const [back] = reversed.body.detail as Detail[];
      expect(back).toMatchObject({ type: { coding: [{ code: "adjustment" }] }, predecessor: { value: line!.identifier.value }, amount: { value: -(benefit - 195) / 100 } });
      expect(back!.extension!.map((e) => e.valueMoney.value)).toEqual([-benefit / 100, -1, -0.95]);
      expect((reversed.body as { paymentAmount: { value: number } }).paymentAmount.value).toBeCloseTo(-(benefit - 195) / 100, 2);
      // Reversed already: nothing left to reverse.
      expect((await t.admin("POST", "/_admin/remittances", { claims: [{ id, reverse: true }], style })).status).toBe(409);
    }
  });
});

describe("automatic remittances (SANDBOX_AUTO_REMIT_MS)", () => {
  it("pays each decided claim once, in one remittance per payer, after the delay; restarts never pay twice", async () => {
    const dataDir = tempDataDir();
    let s = await startTestSandbox({ adjudicationDelayMs: 10, autoRemitMs: 300, dataDir });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await s.call("POST", "/Claim", { body: claimBody({ use: "claim", patientId: "1000000001", coverageId: "cov-1000000001", items: [{ code: "99213", price: 180 }] }) });
        ids.push(String(r.headers.location).split("/").pop()!);
      }
      const remitted = await waitFor(async () => {
        const mail = (await s.admin("GET", "/_admin/mail")).body.mail as { resourceType: string; resource: { detail: { request: { reference: string } }[] } }[];
        const refs = mail.filter((m) => m.resourceType === "PaymentReconciliation").flatMap((m) => m.resource.detail.map((d) => d.request.reference));
        return ids.every((id) => refs.includes(`Claim/${id}`)) ? refs : undefined;
      }, 10_000, 100);
      expect(remitted.filter((r) => ids.some((id) => r === `Claim/${id}`))).toHaveLength(2);
      await s.stop();
      s = await startTestSandbox({ adjudicationDelayMs: 10, autoRemitMs: 300, dataDir });
      await new Promise((r) => setTimeout(r, 900));
      const mail = (await s.admin("GET", "/_admin/mail")).body.mail as { resourceType: string; resource: { detail: { request: { reference: string } }[] } }[];
      const refs = mail.filter((m) => m.resourceType === "PaymentReconciliation").flatMap((m) => m.resource.detail.map((d) => d.request.reference));
      expect(refs.filter((r) => ids.some((id) => r === `Claim/${id}`))).toHaveLength(2);
    } finally {
      await s.stop();
    }
  });
});

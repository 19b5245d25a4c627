import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { liveEvents, submissionEvents, submissions } from "@/lib/db/schema";
import { remittances } from "@/lib/db/schema/payments";
import { startPipeline } from "@/lib/pipeline";
import { submit } from "@/lib/submissions";
import { buildClaim, newWebhookSecret, startTestSandbox, startWebhookRelay, waitFor, type RelayDeps, type SandboxHandle, type WebhookRelay } from "@/lib/pipeline/testing/harness";
import { buildPaymentNotice } from "@/lib/fhir";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { paymentReconciliationInbound } from "./inbound";
import { sendRemittanceNotice } from "./notices";
import { arAging, claimPayments, getRemittance, listRemittances, paidVsAdjudicated } from "./queries";

/**
 * Payments (docs/decisions/047) against the sandbox, in both protocols: the payer's remittance arrives by
 * webhook + read (REST) or by poll (messaging), is matched to the portal's claims (one short-paid,
 * one line for a claim the portal does not know), and the clinic's PaymentNotices (paid, cleared)
 * are accepted by the platform.
 */
const PROTOCOLS = ["rest", "messaging"] as const;
const DECIDED = ["complete", "partial"];
const inbound = { PaymentReconciliation: paymentReconciliationInbound };

describe.each(testDatabases())("payments on $name", (target) => {
  describe.each(PROTOCOLS)("in the %s protocol", (protocol) => {
    let database: Awaited<ReturnType<typeof target.open>>;
    let sb: SandboxHandle;
    let relay: WebhookRelay | undefined;
    let client: PlatformClient;
    let port: PlatformPort;
    let services: ReturnType<typeof startPipeline>;

    beforeAll(async () => {
      database = await target.open();
      await seedDemoPatients(database.db);
      const secret = newWebhookSecret();
      const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, inbound };
      if (protocol === "rest") relay = await startWebhookRelay(relayDeps);
      sb = await startTestSandbox({ adjudicationDelayMs: 50, ...(relay ? { webhookUrl: relay.url, webhookSecret: secret } : {}) });
      client = createPlatformClient(protocol === "messaging" ? { ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" } : sb.config, { db: database.db, tlsCheckIntervalMs: 60_000 });
      relayDeps.client = client;
      port = portFor(client, database.db);
      services = startPipeline({
        db: database.db,
        client: port,
        config: { pollMs: 25, leaseMs: 10_000, pollAfterMs: 1_000, messagePollMs: 100 },
        log: () => {},
        inbound,
      });
    }, 60_000);
    afterAll(async () => {
      await services?.stop(1000);
      await client?.close();
      await sb?.close();
      await relay?.close();
      await database?.dispose();
    });

    it("a remittance for three claims (one short-paid) and one unknown claim is matched; notices paid then cleared are accepted", async () => {
      const ids: string[] = [];
      for (const code of ["85025", "85025", "85025"]) {
        ids.push((await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code, price: 60 }] }) })).id);
      }
      const rows = await waitFor(async () => {
        const r = await database.db.select().from(submissions).where(inArray(submissions.id, ids));
        return r.length === 3 && r.every((s) => DECIDED.includes(s.status)) ? r : undefined;
      }, 30_000, "three claims decided");
      const byId = new Map(rows.map((r) => [r.id, r]));
      // Messages are answered identifier-only (decision 073): the portal never learns the sandbox's
      // ids, so the payer's remittance is matched by our identifier; the sandbox's ids come from its admin.
      expect(rows.every((r) => (r.platformId === null) === (protocol === "messaging"))).toBe(true);
      const held = (await sb.admin("GET", "/_admin/claims")).body.claims as { id: string; identifier: string }[];
      const platformIds = ids.map((id) => held.find((c) => c.identifier === byId.get(id)!.identifierValue)!.id);

      const posted = await sb.admin("POST", "/_admin/remittances", {
        claims: [{ id: platformIds[0] }, { id: platformIds[1] }, { id: platformIds[2], amount: 1.5 }, { id: "not-a-claim-of-ours", amount: 10 }],
      });
      expect(posted.status).toBe(201);
      const platformId = posted.body.id as string;

      const [stored] = await waitFor(async () => {
        const r = await database.db.select().from(remittances).where(eq(remittances.platformId, platformId));
        return r.length ? r : undefined;
      }, 15_000, "remittance stored");
      expect(stored!.source).toBe(protocol === "rest" ? "webhook" : "poll");

      const detail = (await getRemittance(database.db, stored!.id))!;
      expect(detail.lines).toHaveLength(4);
      expect(detail.lines.slice(0, 3).map((l) => l.submissionId)).toEqual(ids);
      expect(detail.lines[3]!.submissionId).toBeNull();
      expect(detail.remittance.unmatched).toBe(1);
      expect(detail.lines.map((l) => l.shortPaid)).toEqual([false, false, true, false]);
      expect(detail.lines[2]!.amountMinor).toBe(150);
      // Exact money: the remittance's total is the sum of its lines.
      expect(detail.remittance.amountMinor).toBe(detail.lines.reduce((s, l) => s + l.amountMinor, 0));
      const [summary] = (await listRemittances(database.db)).filter((r) => r.id === stored!.id);
      expect(summary).toMatchObject({ lines: 4, unmatched: 1, shortPaid: 1 });

      // Announced live (the Payments page: counts and amounts, no patient data) and on each paid claim's timeline.
      const announced = (await database.db.select().from(liveEvents).where(eq(liveEvents.kind, "payments.remittance"))).filter((e) => e.payload?.remittanceId === stored!.id);
      expect(announced).toHaveLength(1);
      expect(announced[0]).toMatchObject({ audience: ["billing", "manager"], payload: { amountMinor: stored!.amountMinor, lines: 4, unmatched: 1 } });
      const paidNotes = await database.db.select().from(submissionEvents).where(inArray(submissionEvents.submissionId, ids));
      expect(paidNotes.filter((e) => e.detail?.note === "remittanceReceived").map((e) => e.submissionId).sort()).toEqual([...ids].sort());
      const claimLive = await database.db.select().from(liveEvents).where(and(eq(liveEvents.kind, "payment.remittance"), inArray(liveEvents.submissionId, ids)));
      expect(claimLive.find((e) => e.submissionId === ids[2])?.payload).toMatchObject({ note: "remittanceReceived", amountMinor: 150 });

      // A repeated delivery is recognised (and announced nothing more).
      const again = await paymentReconciliationInbound({ db: database.db, clock: () => new Date(), pollAfterMs: 60_000, log: () => {}, source: "poll" }, stored!.resource);
      expect(again).toBe("unchanged");
      expect((await database.db.select().from(liveEvents).where(eq(liveEvents.kind, "payments.remittance"))).filter((e) => e.payload?.remittanceId === stored!.id)).toHaveLength(1);

      // Claims show "paid on … in remittance …".
      const paid = await claimPayments(database.db, ids);
      expect(paid.get(ids[0]!)).toMatchObject({ remittanceId: stored!.id, shortPaid: false, paymentDate: stored!.paymentDate });
      expect(paid.get(ids[2]!)).toMatchObject({ paidMinor: 150, shortPaid: true });

      // A/R aging: only the short-paid claim is still owed, in 0–30 days.
      const aging = await arAging(database.db, new Date());
      const owed = aging.reduce((s, r) => s + r.buckets["0-30"].count, 0);
      expect(owed).toBe(1);
      expect(aging.reduce((s, r) => s + r.buckets["90+"].count, 0)).toBe(0);
      const later = await arAging(database.db, new Date(Date.now() + 95 * 86_400_000));
      expect(later.reduce((s, r) => s + r.buckets["90+"].count, 0)).toBe(1);
      const pva = await paidVsAdjudicated(database.db, { start: new Date(Date.now() - 3_600_000), end: new Date(Date.now() + 3_600_000) });
      expect(pva.reduce((s, r) => s + r.paidClaims, 0)).toBe(3);

      // Cleared before paid is refused; paid, then cleared, accepted; a repeat is not sent again.
      const deps = { db: database.db, port, providerOrgId: "clinic-001" };
      expect(await sendRemittanceNotice(deps, stored!.id, "cleared", "u1")).toEqual({ ok: false, error: "not_paid_yet" });
      expect(await sendRemittanceNotice(deps, stored!.id, "paid", "u1")).toEqual({ ok: true, status: "paid", already: false });
      expect(await sendRemittanceNotice(deps, stored!.id, "paid", "u1")).toEqual({ ok: true, status: "paid", already: true });
      expect(await sendRemittanceNotice(deps, stored!.id, "cleared", "u1")).toEqual({ ok: true, status: "cleared", already: false });
      const notices = (await sb.admin("GET", "/_admin/payment-notices")).body.notices as { paymentId: string; paymentStatus: string; protocol: string }[];
      expect(notices.filter((n) => n.paymentId === platformId).map((n) => [n.paymentStatus, n.protocol])).toEqual([
        ["paid", protocol],
        ["cleared", protocol],
      ]);
      const after = (await getRemittance(database.db, stored!.id))!;
      expect(after.remittance.paidAt).not.toBeNull();
      expect(after.remittance.clearedAt).not.toBeNull();
      expect(after.notices.map((n) => [n.paymentStatus, n.outcome])).toEqual([
        ["paid", "accepted"],
        ["cleared", "accepted"],
      ]);
    }, 60_000);

    it("a fee component is reconciled to the halala (not short), an advance is no unmatched claim, and A/R aging follows a reversal", async () => {
      const ids: string[] = [];
      for (const price of [60, 61]) ids.push((await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price }] }) })).id);
      const rows = await waitFor(async () => {
        const r = await database.db.select().from(submissions).where(inArray(submissions.id, ids));
        return r.length === 2 && r.every((s) => DECIDED.includes(s.status)) ? r : undefined;
      }, 30_000, "two claims decided");
      const held = (await sb.admin("GET", "/_admin/claims")).body.claims as { id: string; identifier: string }[];
      const platformIds = ids.map((id) => held.find((c) => c.identifier === rows.find((r) => r.id === id)!.identifierValue)!.id);
      // The benefit as the payer stated it (the one reading the payments use).
      const benefit = (id: string) => Number(((rows.find((r) => r.id === id)!.responseView as { total: { benefit: { minor: number } } }).total.benefit.minor));
      const [benefitA, benefitB] = [benefit(ids[0]!), benefit(ids[1]!)];
      expect(benefitA).toBeGreaterThan(195);
      // Each protocol in its own answer style: REST the spec's form, messaging the national (identifier-only claims and payer).
      const style = protocol === "messaging" ? "national" : "default";
      const stored = async (platformId: string) =>
        (
          await waitFor(async () => {
            const r = await database.db.select().from(remittances).where(eq(remittances.platformId, platformId));
            return r.length ? r : undefined;
          }, 15_000, "remittance stored")
        )[0]!;
      const open = async () => (await arAging(database.db, new Date())).reduce((s, r) => s + r.buckets["0-30"].count, 0);
      // Both decided claims are owed until paid.
      const owedBefore = await open();

      // Claim A paid early: the payer keeps 1.00 and the exchange 0.95; claim B in full; an advance of 500.00.
      const first = await sb.admin("POST", "/_admin/remittances", { claims: [{ id: platformIds[0], earlyFee: 1, exchangeFee: 0.95 }, { id: platformIds[1] }], advance: 500, style });
      expect(first.status).toBe(201);
      const one = await stored(first.body.id as string);
      const detail = (await getRemittance(database.db, one.id))!;
      expect(detail.lines.map((l) => [l.kind, l.submissionId])).toEqual([
        ["payment", ids[0]],
        ["payment", ids[1]],
        ["advance", null],
      ]);
      const [feeLine, fullLine] = detail.lines;
      expect(feeLine).toMatchObject({ amountMinor: benefitA - 195, paymentMinor: benefitA, earlyFeeMinor: 100, exchangeFeeMinor: 95, settledMinor: benefitA, componentGapMinor: null, shortPaid: false, shortByMinor: 0 });
      expect(fullLine).toMatchObject({ amountMinor: benefitB, settledMinor: benefitB, shortPaid: false });
      // To the halala: paymentAmount = the lines' amounts; what reached the clinic + fees = what settles the claims.
      expect(detail.remittance).toMatchObject({ amountMinor: benefitA - 195 + benefitB + 50_000, unallocatedMinor: 0, earlyFeeMinor: 100, exchangeFeeMinor: 95, unmatched: 0, shortPaid: 0 });
      expect(feeLine!.amountMinor + feeLine!.earlyFeeMinor! + feeLine!.exchangeFeeMinor!).toBe(feeLine!.settledMinor);
      expect((await claimPayments(database.db, [ids[0]!])).get(ids[0]!)).toMatchObject({ paidMinor: benefitA, benefitMinor: benefitA, shortPaid: false });
      // Neither is owed any more: claim A is not "short by" its fees.
      expect(await open()).toBe(owedBefore - 2);

      // The payer reverses claim A's payment: it is owed again (in A/R), its fees given back.
      const second = await sb.admin("POST", "/_admin/remittances", { claims: [{ id: platformIds[0], reverse: true }], style });
      expect(second.status).toBe(201);
      const two = await stored(second.body.id as string);
      const reversal = (await getRemittance(database.db, two.id))!;
      expect(reversal.lines[0]).toMatchObject({ kind: "reversal", submissionId: ids[0], amountMinor: -(benefitA - 195), settledMinor: -benefitA, paidTotalMinor: 0, shortPaid: false });
      expect(reversal.lines[0]!.predecessorValue).toBe((first.body.detail as { identifier: { value: string } }[])[0]!.identifier.value);
      expect(reversal.remittance).toMatchObject({ amountMinor: -(benefitA - 195), unallocatedMinor: 0, earlyFeeMinor: -100, exchangeFeeMinor: -95, reversals: 1 });
      expect(await open()).toBe(owedBefore - 1);
      const owed = (await arAging(database.db, new Date())).reduce((s, r) => s + r.buckets["0-30"].minor, 0);
      expect((await claimPayments(database.db, [ids[0]!])).get(ids[0]!)).toMatchObject({ paidMinor: 0, shortPaid: true });

      // Paid again in full: nothing owed for it any more.
      const third = await sb.admin("POST", "/_admin/remittances", { claims: [{ id: platformIds[0] }], style });
      await stored(third.body.id as string);
      expect(await open()).toBe(owedBefore - 2);
      expect((await arAging(database.db, new Date())).reduce((s, r) => s + r.buckets["0-30"].minor, 0)).toBe(owed - benefitA);
    }, 90_000);

    it("the platform refuses a notice about a remittance it never sent, with the path named", async () => {
      const notice = buildPaymentNotice({ id: "pn-unknown", paymentId: "no-such-remittance", paymentStatus: "paid", amountMinor: 100, currency: "SAR", providerOrgId: "clinic-001", paymentDate: "2026-11-23", created: new Date(), identifierSystem: "https://clinic.example/fhir/payment-notice-id/clinic-001" });
      await expect(port.sendPaymentNotice(notice)).rejects.toMatchObject({ status: 400, diagnostics: expect.stringContaining("PaymentNotice.payment") });
    }, 30_000);
  });
});

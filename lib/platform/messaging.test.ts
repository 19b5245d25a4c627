import { randomUUID } from "node:crypto";
import type { Claim } from "@medplum/fhirtypes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {  type Database } from "@/lib/db";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { NATIONAL_EXCHANGE, buildMessage } from "@/lib/fhir";
import { PlatformError, createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "./index";
import { claimFixture, eligibilityRequest, startPlatformSandbox, type PlatformSandbox } from "./testing";
import { insertSubmissions } from "@/lib/submissions/testing";

const HIGH_LIMITS = { eligibility: 2_000, claims: 2_000, status: 5_000 };
let sbx: PlatformSandbox;
let database: Database;
let client: PlatformClient;
let port: PlatformPort;

beforeAll(async () => {
  // The spec's answer form (platform ids in answers); identifier-only answers: messaging-identity.test.ts.
  sbx = await startPlatformSandbox({ adjudicationDelayMs: 100, answerStyle: "default" });
  database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  await seedDemoPatients(database.db);
  client = createPlatformClient({ ...sbx.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" }, { db: database.db, limits: { limits: HIGH_LIMITS } });
  port = portFor(client, database.db);
});
afterAll(async () => {
  await client?.close();
  await sbx?.stop();
  await database?.close();
});

async function receipts(value: string): Promise<{ receipts: number; claims: number }> {
  const { body } = (await sbx.admin("GET", "/_admin/claims")) as { body: { receipts: { value: string; count: number }[]; claims: { identifier?: { value?: string } | string }[] } };
  return {
    receipts: body.receipts.find((r) => r.value === value)?.count ?? 0,
    claims: body.claims.filter((c) => (typeof c.identifier === "string" ? c.identifier : c.identifier?.value) === value).length,
  };
}

/** Requests the sandbox took over the clinic's main certificate, by kind (message event). */
async function facilityCounts(): Promise<Record<string, number>> {
  const { body } = (await sbx.admin("GET", "/_admin/facilities")) as { body: { facilities: { code: string; byKind: Record<string, number> }[] } };
  return body.facilities.find((f) => f.code === "main")?.byKind ?? {};
}

describe("the messaging adapter against the sandbox's $process-message", () => {
  it("is chosen by the configured protocol", () => {
    expect(port.protocol).toBe("messaging");
    expect(portFor(createPlatformClient(sbx.config, { db: database.db }), database.db).protocol).toBe("rest");
  });

  it("checks eligibility synchronously in a message", async () => {
    const answer = await port.checkEligibility(eligibilityRequest("1000000001", "payer-rimal"));
    expect(answer.data.resourceType).toBe("CoverageEligibilityResponse");
    expect(answer.view.outcome).toBe("complete");
  });

  it("answers a prior authorization at once and a claim queued, then serves the decision through polls", async () => {
    const auth = await port.submitClaim(claimFixture({ use: "preauthorization", items: [{ code: "99213", price: 250 }] }));
    expect(auth.view.decision).toBeDefined();
    // The response message as it arrived, kept for the inbox (decision 096).
    expect(auth.answer?.source).toBe("sync");
    expect(auth.answer?.event).toBe("priorauth-response");
    expect((JSON.parse(auth.answer!.body) as { id: string }).id).toBe(auth.answer?.messageId);
    expect(auth.platformId).toBeTruthy();
    const claim = await port.submitClaim(claimFixture({ use: "claim", items: [{ code: "99213", price: 250 }] }));
    expect(claim.data.outcome).toBe("queued");
    expect(claim.platformId).toBeTruthy();
    const seen: string[] = [];
    const deadline = Date.now() + 15_000;
    while (!seen.includes(`Claim/${claim.platformId}`) && Date.now() < deadline) {
      const polled = await port.pollMessages!({ count: 100 });
      for (const m of polled.messages) for (const f of m.focus) seen.push(String((f.request as { reference?: string }).reference));
      // Each message comes with its text as it arrived in the reply (for the inbox, decision 096).
      for (const part of polled.parts) {
        expect(part.text).toBeDefined();
        expect(JSON.parse(part.text!)).toEqual(part.raw);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toContain(`Claim/${claim.platformId}`);
    // status-check goes to the claim's payer, found through the portal's submission (none here)
    const unknown = await port.readClaim(claim.platformId!).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(PlatformError);
    expect((unknown as PlatformError).field).toBe("Claim");
  });

  it("resends the identical Bundle: the exchange answers the repeat with the stored reply, never a second claim", async () => {
    const value = randomUUID();
    const fixture = claimFixture({ use: "claim", identifier: value, items: [{ code: "99213", price: 250 }] });
    const first = await port.submitClaim(fixture);
    const again = await port.submitClaim(structuredClone(fixture));
    expect(again.platformId).toBe(first.platformId);
    expect(await receipts(value)).toEqual({ receipts: 2, claims: 1 });
  });

  it("sends claims together in one batch-request: each answered as if alone, a bad one refused alone, a resend held once", async () => {
    const values = Array.from({ length: 5 }, () => randomUUID());
    const claims = values.map((value, i) => claimFixture({ use: "claim", identifier: value, items: [{ code: "99213", price: 100 + i }], ...(i === 2 ? { diagnoses: ["ZZZ.9"] } : {}) }));
    const before = await facilityCounts();
    const outcomes = await port.submitClaimBatch!(claims);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, true, true]);
    const refused = outcomes[2] as { ok: false; error: unknown; batchWide?: boolean };
    expect(refused.batchWide).toBeUndefined();
    expect(refused.error).toBeInstanceOf(PlatformError);
    expect(refused.error).toMatchObject({ code: "ERR-003", field: "Claim.diagnosis[0]" });
    const accepted = outcomes.flatMap((o) => (o.ok ? [o.answer] : []));
    expect(accepted.every((a) => a.data.outcome === "queued" && a.platformId)).toBe(true);
    expect(new Set(accepted.map((a) => a.platformId)).size).toBe(4);
    const after = await facilityCounts();
    expect((after["batch-request"] ?? 0) - (before["batch-request"] ?? 0)).toBe(1);
    expect((after["claim-request"] ?? 0) - (before["claim-request"] ?? 0)).toBe(0);

    // The same batch again (a retry after a lost answer): the stored replies, no second claim.
    const again = await port.submitClaimBatch!(claims.map((c) => structuredClone(c)));
    expect(again.map((o) => (o.ok ? o.answer.platformId : undefined))).toEqual(outcomes.map((o) => (o.ok ? o.answer.platformId : undefined)));
    expect(await receipts(values[0]!)).toEqual({ receipts: 2, claims: 1 });
  });

  it("searches without a search: the patient's claims the portal sent, each read by status-check", async () => {
    const fixture = claimFixture({ use: "claim", patientId: "1048573628", items: [{ code: "99213", price: 120 }] });
    const sent = await port.submitClaim(fixture);
    await insertSubmissions(database.db, [
      { kind: "claim", status: "sent", patientNationalId: "1048573628", platformId: sent.platformId!, claim: fixture as unknown as Record<string, unknown> },
      // One the exchange does not know (another environment's claim): left out, not an error.
      {
        kind: "claim",
        status: "sent",
        patientNationalId: "1048573628",
        platformId: "no-such-claim",
        claim: { ...fixture, identifier: [{ ...fixture.identifier![0]!, value: randomUUID() }] } as unknown as Record<string, unknown>,
      },
    ]);
    const before = await facilityCounts();
    const found = await port.searchClaims({ patient: "1048573628", createdOnOrAfter: new Date().toISOString().slice(0, 10) });
    expect(found.data.type).toBe("searchset");
    expect(found.data.entry?.map((e) => e.resource?.id)).toEqual([sent.platformId]);
    expect(found.data.entry?.[0]?.resource?.identifier?.[0]?.value).toBe(fixture.identifier![0]!.value);
    const after = await facilityCounts();
    expect((after["status-check"] ?? 0) - (before["status-check"] ?? 0)).toBe(2);
    expect((await port.searchClaims({ patient: "1000000099", createdOnOrAfter: "2026-01-01" })).data.entry).toEqual([]);
  });

  it("drains with queued-messages: a small count leaves the tag on until the last poll", async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => port.submitClaim(claimFixture({ use: "preauthorization", items: [{ code: "99213", price: 250 }] }))));
    expect(ids.every((r) => r.platformId)).toBe(true);
    // prior authorizations were answered at once: nothing of theirs waits; queue claims decided later
    await Promise.all(Array.from({ length: 5 }, () => port.submitClaim(claimFixture({ use: "claim", items: [{ code: "99213", price: 250 }] }))));
    await new Promise((r) => setTimeout(r, 1_000));
    const tags: boolean[] = [];
    let total = 0;
    for (let i = 0; i < 20; i++) {
      const polled = await port.pollMessages!({ count: 2 });
      tags.push(polled.more);
      total += polled.messages.length;
      expect(polled.messages.length).toBeLessThanOrEqual(2);
      if (!polled.more) break;
    }
    expect(tags.at(-1)).toBe(false);
    expect(tags.length).toBeGreaterThan(1);
    expect(total).toBeGreaterThanOrEqual(5);
  });

  it("refuses a message over 10 MB before sending it, naming the size and the attachment", async () => {
    const value = randomUUID();
    const claim: Claim = claimFixture({ use: "preauthorization", identifier: value });
    claim.supportingInfo = [
      {
        sequence: 1,
        category: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claiminformationcategory", code: "attachment" }] },
        valueAttachment: { contentType: "application/pdf", title: "scan.pdf", data: Buffer.alloc(8 * 1024 * 1024, 1).toString("base64") },
      },
    ];
    const error = await port.submitClaim(claim).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).status).toBe(413);
    expect((error as PlatformError).field).toBe("Claim.supportingInfo[0].valueAttachment");
    expect((error as PlatformError).message).toMatch(/^The message is 10\.\d MB; the national exchange accepts at most 10\.0 MB\. Shrink the attachment "scan\.pdf"/);
    expect(await receipts(value)).toEqual({ receipts: 0, claims: 0 });
  });

  it("maps the exchange's refusals to the typed error with the element", async () => {
    const bad = await port.submitClaim(claimFixture({ use: "claim", patientId: "1000000009", coverageId: "cov-1000000001" })).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(PlatformError);
    // an envelope the exchange cannot accept: an unknown payer licence
    const built = buildMessage({
      event: "claim-request",
      focus: { ...claimFixture({ use: "claim" }), id: "c1" },
      providerLicense: "PR-CLINIC-001",
      destination: { payerLicense: "9999999999" },
      sourceEndpoint: "https://clinic.example/fhir",
      timestamp: new Date(),
    });
    const envelope = await client.processMessage(built.bundle, "claims").catch((e: unknown) => e);
    expect(envelope).toBeInstanceOf(PlatformError);
    expect((envelope as PlatformError).field).toBe("MessageHeader.destination[0].receiver.identifier");
    const header = { ...built.bundle, entry: [...built.bundle.entry!].reverse() };
    const order = await client.processMessage(header, "claims").catch((e: unknown) => e);
    expect((order as PlatformError).field).toBe("Bundle.entry[0].resource");
    expect(NATIONAL_EXCHANGE.payerLicense).toBe("http://nphies.sa/license/payer-license");
  });
});

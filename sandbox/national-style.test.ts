import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimIdFromLocation } from "../lib/platform/port";
import { NATIONAL_EXCHANGE, readBundle, readClaimResponse, readCoverageEligibilityResponse, type ClaimResponseView } from "../lib/fhir";
import { NATIONAL_EPISODE_EXTENSION } from "./national-style";
import { claimBody, eligibilityRequest, startTestSandbox, waitFor, type ClaimSpec, type TestSandbox } from "./test-support";

/**
 * The `national` answer style: the same adjudication as the default style, written as a national
 * exchange writes it — and every answer still reads in the portal's own readers with the decisions
 * the engine made.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ adjudicationDelayMs: 50 });
});
afterAll(async () => {
  await t.stop();
});

const gold = { patientId: "1000000001", coverageId: "cov-1000000001" };
const submit = (spec: ClaimSpec) => t.call("POST", "/Claim", { body: claimBody(spec) });

async function adjudicated(location: unknown): Promise<{ raw: Record<string, unknown>; view: ClaimResponseView }> {
  const id = claimIdFromLocation(String(location));
  if (!id) throw new Error(`no claim id in Location ${String(location)}`);
  return waitFor(async () => {
    const res = await t.call("GET", `/ClaimResponse?request=${id}`);
    const entry = readBundle(res.body).view.entries[0]?.resource as Record<string, unknown> | undefined;
    if (!entry || entry.outcome === "queued") return undefined;
    return { raw: entry, view: readClaimResponse(entry).view };
  }, 5_000);
}

describe("answer style switch", () => {
  it("is default at start (national for messages), switched by PUT /_admin/answer-style and refused when unknown", async () => {
    expect((await t.admin("GET", "/_admin/answer-style")).body).toEqual({ style: "default", messaging: "national" });
    const bad = await t.admin("PUT", "/_admin/answer-style", { style: "nphies" });
    expect(bad.status).toBe(400);
    expect(String(bad.body.message)).toMatch(/national/);
    expect((await t.admin("PUT", "/_admin/answer-style", { style: "national" })).body).toEqual({ style: "national" });
    expect((await t.admin("DELETE", "/_admin/answer-style")).body).toEqual({ style: "default", messaging: "national" });
  });
});

describe("national answers", () => {
  beforeAll(async () => {
    await t.admin("PUT", "/_admin/answer-style", { style: "national" });
  });
  afterAll(async () => {
    await t.admin("DELETE", "/_admin/answer-style");
  });

  it("answers an authorization with absolute and identifier-only references and per-item outcomes", async () => {
    const body = claimBody({ ...gold, use: "preauthorization", items: [{ code: "70553", price: 2500 }, { code: "15823", price: 4000 }], diagnoses: ["R51", "H02.8"] });
    const res = await t.call("POST", "/Claim", { body });
    expect(res.status).toBe(201);
    // Location is absolute with its version; the portal still finds the claim id in it.
    expect(String(res.headers.location)).toMatch(/^https:\/\/localhost:\d+\/Claim\/[\w-]+\/_history\/1$/);
    expect(claimIdFromLocation(String(res.headers.location))).toBeTruthy();

    const { view, raw } = readClaimResponse(res.body);
    expect(raw).toBe(res.body);
    expect(view.patient).toMatchObject({ kind: "absolute", type: "Patient", id: "1000000001" });
    expect(view.requestor).toMatchObject({ kind: "absolute", type: "Organization", version: "1" });
    expect(view.request).toMatchObject({ kind: "identifier", identifier: { value: (body.identifier as { value: string }[])[0]!.value } });
    expect(view.insurer).toMatchObject({ kind: "identifier", identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: "7000000101" } });
    expect(view.decision).toBe("partly-approved");
    expect(view.decisionFrom).toBe("outcome-extension");
    expect(view.items.map((i) => [i.sequence, i.outcome, i.decision])).toEqual([
      [1, "approved", "approved"],
      [2, "rejected", "denied"],
    ]);
    expect(view.items[0]!.approvedQuantity).toBe(1);
    expect(view.items[0]!.amounts.benefit?.minor).toBe(200_000);
    expect(view.items[1]!.reasons.map((r) => r.code)).toEqual(["ar001"]);
    expect(view.items[1]!.noteNumbers).toHaveLength(1);
    expect(view.preAuthRef).toMatch(/^PA-/);
    expect(view.preAuthPeriod?.end).toBeTruthy();
    expect(view.insurance[0]?.coverage).toMatchObject({ kind: "absolute", type: "Coverage", id: "cov-1000000001", version: "1" });
    expect(view.processNotes.map((n) => n.language?.code)).toEqual(["en", "ar"]);
    expect(view.processNotes.every((n) => n.type !== undefined)).toBe(true);
    // The episode extension is not interpreted: listed as other data, readably.
    expect(view.otherExtensions).toEqual([expect.objectContaining({ path: "ClaimResponse", url: NATIONAL_EPISODE_EXTENSION, valueType: "Identifier" })]);
    // The sandbox's processing-status extension is not sent in this style.
    expect(JSON.stringify(raw)).not.toContain("claim-processing-status");
  });

  it("answers a price-list reduction as a substitution: billed line rejected, contracted line added, totals unchanged", async () => {
    const res = await submit({ patientId: "1048573628", coverageId: "cov-1048573628", use: "claim", items: [{ code: "99214", price: 400 }] });
    expect(res.status).toBe(202);
    const queued = readClaimResponse(res.body).view;
    expect(queued.decision).toBe("pended");
    const { view } = await adjudicated(res.headers.location);
    expect(view.decision).toBe("partly-approved");
    expect(view.items).toHaveLength(1);
    expect(view.items[0]).toMatchObject({ sequence: 1, outcome: "rejected", decision: "denied", approvedQuantity: 0 });
    expect(view.items[0]!.reasons.map((r) => r.code)).toEqual(["price-list"]);
    expect(view.addItems).toHaveLength(1);
    const added = view.addItems[0]!;
    expect(added).toMatchObject({ kind: "addItem", itemSequences: [1], outcome: "approved", decision: "approved", approvedQuantity: 1 });
    expect(added.service?.code).toBe("99214");
    // Nakheel's contract price for 99214 (contracts/demo-contracts.csv): 332.50, 20 % copay.
    expect(added.amounts.eligible?.minor).toBe(33_250);
    expect(added.amounts.benefit?.minor).toBe(26_600);
    // Totals as the default style gives them (submitted 400, eligible 332.50, benefit 266).
    expect(view.total.submitted?.minor).toBe(40_000);
    expect(view.total.benefit?.minor).toBe(26_600);
    expect(view.payment?.amount?.minor).toBe(26_600);
    expect(view.processNotes.length).toBeGreaterThanOrEqual(2);
  });

  it("calls an exhausted benefit what it is: granted, nothing paid", async () => {
    // Wadi's contract price for 99213 is 225 (contracts/demo-contracts.csv).
    const res = await submit({ patientId: "1122334459", coverageId: "cov-1122334459", use: "claim", items: [{ code: "99213", price: 225 }] });
    const { view } = await adjudicated(res.headers.location);
    expect(view.items[0]).toMatchObject({ outcome: "partial", decision: "partly-approved", zeroBenefit: true });
    expect(view.items[0]!.reasons.map((r) => r.code)).toEqual(["ar002"]);
  });

  it("marks a substituted line that pays nothing as granted without payment, not approved", async () => {
    // 1122334459: consultation benefit used up; 99214 above the price list is substituted, pays 0.
    const res = await submit({ patientId: "1122334459", coverageId: "cov-1122334459", use: "claim", items: [{ code: "99214", price: 400 }] });
    const { view } = await adjudicated(res.headers.location);
    expect(view.addItems[0]).toMatchObject({ outcome: "partial", decision: "partly-approved", zeroBenefit: true });
    expect(view.addItems[0]!.approvedQuantity).toBeUndefined();
    expect(view.addItems[0]!.amounts.benefit?.minor).toBe(0);
  });

  it("denies with the sandbox's own reason system when the coverage lapsed", async () => {
    const res = await submit({ patientId: "1000000002", coverageId: "cov-1000000002", use: "claim", items: [{ code: "99213", price: 250 }] });
    const { view } = await adjudicated(res.headers.location);
    expect(view.decision).toBe("denied");
    expect(view.items[0]!.reasons[0]).toMatchObject({ code: "coverage-inactive", system: "https://platform.example/fhir/CodeSystem/adjudication-reason" });
  });

  it("answers ERR-005 with an absolute Location the portal reads", async () => {
    const body = claimBody({ ...gold, use: "claim", items: [{ code: "99213", price: 250 }] });
    const first = await t.call("POST", "/Claim", { body });
    const again = await t.call("POST", "/Claim", { body });
    expect(again.status).toBe(409);
    expect(claimIdFromLocation(String(again.headers.location))).toBe(claimIdFromLocation(String(first.headers.location)));
  });

  it("answers eligibility with absolute references, network/unit/term, out-of-network, unlimited and counts", async () => {
    const res = await t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest("1000000001", "payer-rimal") });
    expect(res.status).toBe(200);
    const { view } = readCoverageEligibilityResponse(res.body);
    expect(view.patient).toMatchObject({ kind: "absolute", id: "1000000001" });
    expect(view.insurerId).toBe("payer-rimal");
    const insurance = view.insurances[0]!;
    expect(insurance.coverageId).toBe("cov-1000000001");
    expect(insurance.inforce).toBe(true);
    const inNetwork = insurance.categories.filter((c) => c.network === "in" && c.term === "annual");
    expect(inNetwork.length).toBeGreaterThan(3);
    expect(inNetwork.every((c) => c.unit === "individual")).toBe(true);
    const out = insurance.categories.filter((c) => c.network === "out");
    expect(out).toHaveLength(1);
    expect(out[0]!.allowed?.minor).toBe(2_500_000); // half of Medical Care's 50,000.00
    const lifetime = insurance.categories.find((c) => c.term === "lifetime");
    expect(lifetime?.allowedText).toBe("unlimited");
    const consultation = inNetwork.find((c) => c.code === "3");
    expect(consultation?.benefits.find((b) => b.type?.code === "visit")?.allowed?.count).toBe(12);
    expect(inNetwork.find((c) => c.code === "62")?.authorizationSupporting[0]?.code).toBe("attachment");
  });
});

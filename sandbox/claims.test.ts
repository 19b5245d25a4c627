import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  claimProcessingStatus,
  ClaimResponseSchema,
  ClaimResponseSearchBundleSchema,
  ClaimSchema,
  ClaimSearchBundleSchema,
  CODE_SYSTEMS,
  CoverageEligibilityResponseSchema,
  OperationOutcomeSchema,
  SANDBOX_ADJUDICATION_REASON_SYSTEM,
} from "../lib/fhir";
import {
  adjudicationAmount,
  adjudicationReason,
  claimBody,
  eligibilityRequest,
  errorCode,
  processingStatus,
  startTestSandbox,
  waitFor,
  type ClaimSpec,
  type TestSandbox,
} from "./test-support";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ adjudicationDelayMs: 400 });
});
afterAll(async () => {
  await t.stop();
});

const submit = (spec: ClaimSpec) => t.call("POST", "/Claim", { body: claimBody(spec) });
const gold = { patientId: "1000000001", coverageId: "cov-1000000001" };

async function finalClaim(id: string) {
  return waitFor(async () => {
    const res = await t.call("GET", `/Claim/${id}`);
    const status = processingStatus(res.body);
    return status === "queued" || status === "pended" ? undefined : res;
  });
}

async function responseFor(id: string) {
  const res = await t.call("GET", `/ClaimResponse?request=${id}`);
  expect(res.status).toBe(200);
  const bundle = ClaimResponseSearchBundleSchema.parse(res.body);
  expect(bundle.total).toBe(1);
  const resource = bundle.entry?.[0]?.resource;
  if (!resource) throw new Error("no ClaimResponse");
  return resource as unknown as Record<string, unknown>;
}

function reasonCoding(response: Record<string, unknown>, itemSequence: number): { system?: string; code?: string } | undefined {
  const items = (response.item ?? []) as { itemSequence: number; adjudication: { reason?: { coding?: { system?: string; code?: string }[] } }[] }[];
  return items.find((i) => i.itemSequence === itemSequence)?.adjudication.map((a) => a.reason?.coding?.[0]).find((c) => c !== undefined);
}

function claimIdFrom(location: unknown): string {
  const match = /^Claim\/([\w-]+)$/.exec(String(location));
  if (!match?.[1]) throw new Error(`bad Location ${String(location)}`);
  return match[1];
}

describe("POST /Claim use=preauthorization (synchronous)", () => {
  it("approves in full: 201, ClaimResponse complete with preAuthRef and exact amounts", async () => {
    const res = await submit({ ...gold, use: "preauthorization", items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(/^Claim\/[\w-]+$/);
    const response = ClaimResponseSchema.parse(res.body);
    expect(response.outcome).toBe("complete");
    expect(response.use).toBe("preauthorization");
    expect(claimProcessingStatus(response)).toBe("complete");
    expect(response.preAuthRef).toMatch(/^PA-[0-9A-F]{10}$/);
    expect(response.preAuthPeriod?.start).toBeTruthy();
    expect(response.request?.reference).toBe(res.headers.location);
    expect(adjudicationAmount(res.body, 1, "submitted")).toBe(2500);
    expect(adjudicationAmount(res.body, 1, "eligible")).toBe(2500);
    expect(adjudicationAmount(res.body, 1, "copay")).toBe(500);
    expect(adjudicationAmount(res.body, 1, "benefit")).toBe(2000);
    expect(response.payment).toBeUndefined();
  });

  it("partially approves an amount above the price list", async () => {
    const res = await submit({ ...gold, use: "preauthorization", items: [{ code: "29881", price: 10_000 }], diagnoses: ["M23.2"] });
    expect(res.status).toBe(201);
    const response = ClaimResponseSchema.parse(res.body);
    expect(response.outcome).toBe("partial");
    expect(claimProcessingStatus(response)).toBe("partial");
    expect(response.preAuthRef).toBeTruthy();
    expect(adjudicationAmount(res.body, 1, "eligible")).toBe(9000);
    expect(adjudicationAmount(res.body, 1, "benefit")).toBe(9000);
    expect(adjudicationReason(res.body, 1)).toBe("price-list");
    // The sandbox's own reasons are coded in its own system; HL7's defines only ar001/ar002.
    expect(reasonCoding(res.body, 1)?.system).toBe(SANDBOX_ADJUDICATION_REASON_SYSTEM);
    expect(response.disposition).toMatch(/partially approved/);
  });

  it("denies excluded procedures and categories outside the plan, without preAuthRef", async () => {
    const res = await submit({
      ...gold,
      use: "preauthorization",
      items: [
        { code: "15823", price: 4000 },
        { code: "58970", price: 6000 },
      ],
      diagnoses: ["H02.8", "N97.9"],
    });
    expect(res.status).toBe(201);
    const response = ClaimResponseSchema.parse(res.body);
    expect(claimProcessingStatus(response)).toBe("denied");
    expect(response.preAuthRef).toBeUndefined();
    expect(response.disposition).toMatch(/denied: not covered by the plan/);
    expect(adjudicationAmount(res.body, 1, "benefit")).toBe(0);
    expect(adjudicationAmount(res.body, 2, "eligible")).toBe(0);
    expect(adjudicationReason(res.body, 2)).toBe("ar001");
    expect(reasonCoding(res.body, 2)?.system).toBe(CODE_SYSTEMS.adjudicationReason);
    // GET /Claim/{id} carries the same status.
    const claim = await t.call("GET", `/${res.headers.location}`);
    expect(processingStatus(claim.body)).toBe("denied");
  });
});

describe("POST /Claim use=claim (asynchronous)", () => {
  it("queues (202), adjudicates after the delay, and exposes status, response and webhooks", async () => {
    const res = await submit({
      ...gold,
      use: "claim",
      items: [
        { code: "99213", price: 250 },
        { code: "85025", price: 60, quantity: 2 },
        { code: "71046", price: 180 },
      ],
    });
    expect(res.status).toBe(202);
    const queued = ClaimResponseSchema.parse(res.body);
    expect(queued.outcome).toBe("queued");
    expect(claimProcessingStatus(queued)).toBe("queued");
    const id = claimIdFrom(res.headers.location);

    const immediately = await t.call("GET", `/Claim/${id}`);
    expect(immediately.status).toBe(200);
    const claim = ClaimSchema.parse(immediately.body);
    expect(claim.id).toBe(id);
    expect(claimProcessingStatus(claim)).toBe("queued");
    expect(claim.patient.reference).toBe("Patient/1000000001");

    const done = await finalClaim(id);
    expect(processingStatus(done.body)).toBe("complete");
    const response = await responseFor(id);
    const parsed = ClaimResponseSchema.parse(response);
    expect(parsed.outcome).toBe("complete");
    expect([1, 2, 3].map((s) => adjudicationAmount(response, s, "benefit"))).toEqual([200, 108, 162]);
    expect([1, 2, 3].map((s) => adjudicationAmount(response, s, "copay"))).toEqual([50, 12, 18]);
    expect(adjudicationAmount(response, 2, "submitted")).toBe(120);
    expect(parsed.payment?.amount).toEqual({ value: 470, currency: "SAR" });
    expect(parsed.payment?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(parsed.payment?.type.coding?.[0]?.code).toBe("complete");

    // Without a webhook URL, deliveries are recorded (queued, then complete).
    const hooks = await t.admin("GET", "/_admin/webhooks");
    const mine = (hooks.body.deliveries as { claimId: string; status: string; state: string; body: string }[]).filter((d) => d.claimId === id);
    expect(mine.map((d) => [d.status, d.state])).toEqual([
      ["queued", "recorded"],
      ["complete", "recorded"],
    ]);
    expect(JSON.parse(mine[1]?.body ?? "{}")).toMatchObject({ event: "claim.status.changed", claim_id: id, status: "complete" });

    // The remaining X-ray benefit (200 − 162 = 38 SAR) caps the next claim: partial, reason ar002.
    const second = await submit({ ...gold, use: "claim", items: [{ code: "71046", price: 180, quantity: 2 }] });
    const secondId = claimIdFrom(second.headers.location);
    expect(processingStatus((await finalClaim(secondId)).body)).toBe("partial");
    const r2 = await responseFor(secondId);
    expect(adjudicationAmount(r2, 1, "eligible")).toBe(360);
    expect(adjudicationAmount(r2, 1, "benefit")).toBe(38);
    expect(adjudicationAmount(r2, 1, "copay")).toBe(322);
    expect(adjudicationReason(r2, 1)).toBe("ar002");

    // Eligibility now shows the X-ray category fully used.
    const elig = await t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest("1000000001", "payer-rimal", ["4"]) });
    const xray = CoverageEligibilityResponseSchema.parse(elig.body).insurance?.[0]?.item?.[0]?.benefit?.[0];
    expect(xray?.usedMoney?.value).toBe(8000);
  });

  it("computes exact amounts in halalas (no float drift)", async () => {
    const res = await submit({ patientId: "2087654311", coverageId: "cov-2087654311", use: "claim", items: [{ code: "99213", price: 249.99, quantity: 3 }] });
    const id = claimIdFrom(res.headers.location);
    await finalClaim(id);
    const r = await responseFor(id);
    expect(adjudicationAmount(r, 1, "submitted")).toBe(749.97);
    expect(adjudicationAmount(r, 1, "eligible")).toBe(749.97);
    // 10% of 749.97 = 74.997 → 75.00 (half up); benefit 674.97.
    expect(adjudicationAmount(r, 1, "copay")).toBe(75);
    expect(adjudicationAmount(r, 1, "benefit")).toBe(674.97);
  });

  it("reduces an item priced above the list (partial)", async () => {
    const res = await submit({ patientId: "1048573628", coverageId: "cov-1048573628", use: "claim", items: [{ code: "99214", price: 400 }] });
    const id = claimIdFrom(res.headers.location);
    expect(processingStatus((await finalClaim(id)).body)).toBe("partial");
    const r = await responseFor(id);
    // Nakheel's contract price for 99214 (contracts/demo-contracts.csv): 332.50; 20 % copay.
    expect(adjudicationAmount(r, 1, "eligible")).toBe(332.5);
    expect(adjudicationAmount(r, 1, "benefit")).toBe(266);
    expect(adjudicationReason(r, 1)).toBe("price-list");
  });

  it("denies a procedure that needs prior authorization without one, and pays it with one", async () => {
    const without = await submit({ ...gold, use: "claim", items: [{ code: "72148", price: 2000 }], diagnoses: ["M54.5"] });
    const withoutId = claimIdFrom(without.headers.location);
    expect(processingStatus((await finalClaim(withoutId)).body)).toBe("denied");
    expect(adjudicationReason(await responseFor(withoutId), 1)).toBe("preauth-required");

    // A preAuthRef of ANOTHER patient does not count.
    const otherPa = await submit({ patientId: "2087654311", coverageId: "cov-2087654311", use: "preauthorization", items: [{ code: "72148", price: 2000 }] });
    const otherRef = String(otherPa.body.preAuthRef);
    const stolen = await submit({ ...gold, use: "claim", items: [{ code: "72148", price: 2000 }], preAuthRef: [otherRef] });
    expect(processingStatus((await finalClaim(claimIdFrom(stolen.headers.location))).body)).toBe("denied");

    const pa = await submit({ ...gold, use: "preauthorization", items: [{ code: "72148", price: 2000 }], diagnoses: ["M54.5"] });
    const ref = String(pa.body.preAuthRef);
    const withPa = await submit({ ...gold, use: "claim", items: [{ code: "72148", price: 2000 }], diagnoses: ["M54.5"], preAuthRef: [ref] });
    const withId = claimIdFrom(withPa.headers.location);
    expect(processingStatus((await finalClaim(withId)).body)).toBe("complete");
    const r = await responseFor(withId);
    expect(adjudicationAmount(r, 1, "eligible")).toBe(2000);
    expect(adjudicationAmount(r, 1, "benefit")).toBe(1600);
  });

  it("caps a claim at the partially authorized amount", async () => {
    const pa = await submit({ patientId: "2087654311", coverageId: "cov-2087654311", use: "preauthorization", items: [{ code: "29881", price: 9500 }] });
    expect(claimProcessingStatus(ClaimResponseSchema.parse(pa.body))).toBe("partial");
    const claim = await submit({ patientId: "2087654311", coverageId: "cov-2087654311", use: "claim", items: [{ code: "29881", price: 9500 }], preAuthRef: [String(pa.body.preAuthRef)] });
    const id = claimIdFrom(claim.headers.location);
    await finalClaim(id);
    const r = await responseFor(id);
    expect(adjudicationAmount(r, 1, "eligible")).toBe(9000);
    expect(adjudicationAmount(r, 1, "benefit")).toBe(8100);
  });

  it("denies claims when the coverage is not in force (1000000002)", async () => {
    const res = await submit({ patientId: "1000000002", coverageId: "cov-1000000002", use: "claim", items: [{ code: "99213", price: 250 }] });
    expect(res.status).toBe(202);
    const id = claimIdFrom(res.headers.location);
    expect(processingStatus((await finalClaim(id)).body)).toBe("denied");
    const r = await responseFor(id);
    expect(adjudicationReason(r, 1)).toBe("coverage-inactive");
    expect(ClaimResponseSchema.parse(r).payment?.amount.value).toBe(0);
  });

  it("pends large claims for review before adjudicating them (queued → pended → complete)", async () => {
    const pa = await submit({ patientId: "2087654311", coverageId: "cov-2087654311", use: "preauthorization", items: [{ code: "47562", price: 12_000 }], diagnoses: ["K80.2"] });
    const res = await submit({
      patientId: "2087654311",
      coverageId: "cov-2087654311",
      use: "claim",
      items: [{ code: "47562", price: 12_000 }],
      diagnoses: ["K80.2"],
      preAuthRef: [String(pa.body.preAuthRef)],
    });
    const id = claimIdFrom(res.headers.location);
    await waitFor(async () => (processingStatus((await t.call("GET", `/Claim/${id}`)).body) === "pended" ? true : undefined));
    expect(processingStatus((await finalClaim(id)).body)).toBe("complete");
    const hooks = await t.admin("GET", "/_admin/webhooks");
    const statuses = (hooks.body.deliveries as { claimId: string; status: string }[]).filter((d) => d.claimId === id).map((d) => d.status);
    expect(statuses).toEqual(["queued", "pended", "complete"]);
  });
});

describe("claim errors", () => {
  it("ERR-003 for unknown CPT / ICD-10-AM codes and wrong systems (422)", async () => {
    const cases: Record<string, unknown>[] = [];
    const unknownCpt = claimBody({ ...gold, use: "claim", items: [{ code: "99999", price: 100 }] });
    cases.push(unknownCpt);
    cases.push(claimBody({ ...gold, use: "claim", items: [{ code: "99213", price: 250 }], diagnoses: ["Z99.99"] }));
    const wrongSystem = claimBody({ ...gold, use: "claim", items: [{ code: "99213", price: 250 }] });
    (wrongSystem.diagnosis as { diagnosisCodeableConcept: { coding: { system: string }[] } }[])[0]!.diagnosisCodeableConcept.coding[0]!.system = "http://hl7.org/fhir/sid/icd-10";
    cases.push(wrongSystem);
    const wrongCurrency = claimBody({ ...gold, use: "claim", items: [{ code: "99213", price: 250 }] });
    (wrongCurrency.item as { unitPrice: { currency: string } }[])[0]!.unitPrice.currency = "USD";
    cases.push(wrongCurrency);
    cases.push({ ...claimBody({ ...gold, use: "claim", items: [{ code: "99213", price: 250 }] }), use: "predetermination" });
    for (const body of cases) {
      const res = await t.call("POST", "/Claim", { body });
      expect(res.status).toBe(422);
      expect(errorCode(res.body)).toBe("ERR-003");
    }
    const res = await t.call("POST", "/Claim", { body: unknownCpt });
    expect(OperationOutcomeSchema.parse(res.body).issue[0]?.expression).toEqual(["Claim.item[0].productOrService"]);
  });

  it("ERR-004 for missing required fields, naming them (422)", async () => {
    const body = claimBody({ ...gold, use: "claim", items: [{ code: "99213", price: 250 }] });
    delete body.diagnosis;
    delete (body.item as Record<string, unknown>[])[0]!.servicedDate;
    const res = await t.call("POST", "/Claim", { body });
    expect(res.status).toBe(422);
    const outcome = OperationOutcomeSchema.parse(res.body);
    expect(outcome.issue.map((i) => i.details?.coding?.[0]?.code)).toEqual(["ERR-004", "ERR-004"]);
    expect(outcome.issue.map((i) => i.expression?.[0])).toEqual(["Claim.diagnosis", "Claim.item[0].servicedDate"]);
    const noItems = await t.call("POST", "/Claim", { body: { ...claimBody({ ...gold, use: "claim", items: [] }) } });
    expect(noItems.status).toBe(422);
    expect(OperationOutcomeSchema.parse(noItems.body).issue[0]?.diagnostics).toContain("Claim.item");
  });

  it("ERR-001 for an invalid patient identifier (400) and ERR-002 for coverage problems (404)", async () => {
    const bad = await submit({ patientId: "1234567890", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }] });
    expect(bad.status).toBe(400);
    expect(errorCode(bad.body)).toBe("ERR-001");
    const none = await submit({ patientId: "1000000003", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }] });
    expect(none.status).toBe(404);
    expect(errorCode(none.body)).toBe("ERR-002");
    const someoneElses = await submit({ patientId: "1000000001", coverageId: "cov-2087654311", use: "claim", items: [{ code: "99213", price: 250 }] });
    expect(someoneElses.status).toBe(404);
    expect(errorCode(someoneElses.body)).toBe("ERR-002");
  });

  it("ERR-005 for a duplicate identifier (409, Location of the first), counted per receipt", async () => {
    const spec: ClaimSpec = { ...gold, use: "claim", items: [{ code: "99213", price: 250 }], identifier: "DUP-0001" };
    const first = await submit(spec);
    expect(first.status).toBe(202);
    const again = await submit(spec);
    expect(again.status).toBe(409);
    expect(errorCode(again.body)).toBe("ERR-005");
    expect(again.headers.location).toBe(first.headers.location);
    expect(OperationOutcomeSchema.parse(again.body).issue[0]?.diagnostics).toContain(String(first.headers.location));
    // Same value under another identifier system is a different business identifier.
    const otherSystem = claimBody(spec);
    (otherSystem.identifier as { system: string }[])[0]!.system = "https://clinic.example/other";
    expect((await t.call("POST", "/Claim", { body: otherSystem })).status).toBe(202);
    const counts = await t.admin("GET", "/_admin/claims");
    const receipt = (counts.body.receipts as { value: string; system: string; count: number; claimId: string }[]).find(
      (r) => r.value === "DUP-0001" && r.system === "https://clinic.example/claims",
    );
    expect(receipt?.count).toBe(2);
    expect(`Claim/${receipt?.claimId}`).toBe(first.headers.location);
  });

  it("400 for bad amounts and quantities; 404 for unknown claims", async () => {
    expect((await submit({ ...gold, use: "claim", items: [{ code: "99213", price: 250.001 }] })).status).toBe(400);
    expect((await submit({ ...gold, use: "claim", items: [{ code: "99213", price: -1 }] })).status).toBe(400);
    expect((await submit({ ...gold, use: "claim", items: [{ code: "99213", price: 250, quantity: 1.5 }] })).status).toBe(400);
    const missing = await t.call("GET", "/Claim/does-not-exist");
    expect(missing.status).toBe(404);
    OperationOutcomeSchema.parse(missing.body);
  });
});

describe("searches", () => {
  it("GET /Claim?patient=&created=ge filters by patient and creation date", async () => {
    const patient = { patientId: "1122334459", coverageId: "cov-1122334459" };
    const jan = await submit({ ...patient, use: "claim", items: [{ code: "85025", price: 60 }], created: "2026-01-10T08:00:00Z" });
    const mar = await submit({ ...patient, use: "claim", items: [{ code: "85025", price: 60 }], created: "2026-03-05T08:00:00Z" });
    const all = ClaimSearchBundleSchema.parse((await t.call("GET", "/Claim?patient=1122334459")).body);
    expect(all.type).toBe("searchset");
    expect(all.total).toBe(2);
    const since = await t.call("GET", "/Claim?patient=1122334459&created=ge2026-02-01");
    const bundle = ClaimSearchBundleSchema.parse(since.body);
    expect(bundle.total).toBe(1);
    expect(`Claim/${bundle.entry?.[0]?.resource.id}`).toBe(mar.headers.location);
    expect(claimProcessingStatus(bundle.entry![0]!.resource)).toBeDefined();
    expect(ClaimSearchBundleSchema.parse((await t.call("GET", "/Claim?patient=1122334459&created=ge2026-01-10")).body).total).toBe(2);
    expect(ClaimSearchBundleSchema.parse((await t.call("GET", "/Claim?patient=Patient/1122334459&created=lt2026-02-01")).body).entry?.[0]?.resource.id).toBe(
      claimIdFrom(jan.headers.location),
    );
    expect(ClaimSearchBundleSchema.parse((await t.call("GET", "/Claim?patient=1000000003")).body).total).toBe(0);
  });

  it("search errors: missing patient → ERR-004, bad patient → ERR-001, bad date → 400", async () => {
    const missing = await t.call("GET", "/Claim?created=ge2026-01-01");
    expect(missing.status).toBe(422);
    expect(errorCode(missing.body)).toBe("ERR-004");
    const bad = await t.call("GET", "/Claim?patient=12345");
    expect(bad.status).toBe(400);
    expect(errorCode(bad.body)).toBe("ERR-001");
    expect((await t.call("GET", "/Claim?patient=1000000001&created=ge2026-13-45")).status).toBe(400);
    expect((await t.call("GET", "/Claim?patient=1000000001&created=yesterday")).status).toBe(400);
  });

  it("GET /ClaimResponse?request= returns a searchset (empty for unknown claims); missing request → ERR-004", async () => {
    const empty = ClaimResponseSearchBundleSchema.parse((await t.call("GET", "/ClaimResponse?request=unknown")).body);
    expect(empty.total).toBe(0);
    const missing = await t.call("GET", "/ClaimResponse");
    expect(missing.status).toBe(422);
    expect(errorCode(missing.body)).toBe("ERR-004");
  });
});

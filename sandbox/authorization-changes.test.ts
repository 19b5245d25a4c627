import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClaimResponseSchema, ClaimResponseSearchBundleSchema } from "../lib/fhir";
import { adjudicationAmount, claimBody, processingStatus, startTestSandbox, waitFor, type ClaimSpec, type TestSandbox } from "./test-support";

/*
 * The sandbox adjudicates changes and unasked evidence like the exchange (docs/decisions/114, 115):
 * a prior authorization that names an approved one as `prior` and carries its reference keeps the
 * reference and overrides it; information sent unasked about a partly approved claim is
 * acknowledged and (SANDBOX_EVIDENCE_REISSUE=approve, the default) answered by a reissued decision.
 */
let t: TestSandbox;
let quiet: TestSandbox;
beforeAll(async () => {
  [t, quiet] = await Promise.all([startTestSandbox({ adjudicationDelayMs: 50 }), startTestSandbox({ adjudicationDelayMs: 50, evidenceReissue: "off" })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.stop(), quiet?.stop()]);
});

const gold = { patientId: "1000000001", coverageId: "cov-1000000001" };
const nakheel = { patientId: "1048573628", coverageId: "cov-1048573628" };
const prior = (identifier: string) => ({ claim: { identifier: { system: "https://clinic.example/claims", value: identifier } }, relationship: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship", code: "prior" }] } });
const body = (spec: ClaimSpec, related?: string) => ({ ...claimBody(spec), ...(related ? { related: [prior(related)] } : {}) });
const claimId = (location: unknown) => /^Claim\/([\w-]+)$/.exec(String(location))![1]!;

describe("a change of a prior authorization (guide v2.7 Table 37)", () => {
  it("keeps the reference of the approved version it names as prior; the change decides claims that use it", async () => {
    const first = await t.call("POST", "/Claim", { body: body({ ...gold, use: "preauthorization", identifier: "PA-V1", items: [{ code: "29881", price: 10_000 }], diagnoses: ["M23.2"] }) });
    expect(first.status).toBe(201);
    const ref = ClaimResponseSchema.parse(first.body).preAuthRef!;
    expect(adjudicationAmount(first.body, 1, "eligible")).toBe(9000);

    // Resubmitted at the list price with a second service: the same reference.
    const change = await t.call("POST", "/Claim", { body: body({ ...gold, use: "preauthorization", identifier: "PA-V2", preAuthRef: [ref], items: [{ code: "29881", price: 9000 }, { code: "70553", price: 2500 }], diagnoses: ["M23.2"] }, "PA-V1") });
    expect(change.status).toBe(201);
    expect(ClaimResponseSchema.parse(change.body).preAuthRef).toBe(ref);

    // Without `related` prior it is a new authorization with a reference of its own.
    const unrelated = await t.call("POST", "/Claim", { body: body({ ...gold, use: "preauthorization", identifier: "PA-V3", preAuthRef: [ref], items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] }) });
    expect(ClaimResponseSchema.parse(unrelated.body).preAuthRef).not.toBe(ref);

    // A claim using the reference is held to the current version: the added service is authorized.
    const claim = await t.call("POST", "/Claim", { body: body({ ...gold, use: "claim", preAuthRef: [ref], items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] }) });
    const id = claimId(claim.headers.location);
    const decided = await waitFor(async () => {
      const res = await t.call("GET", `/Claim/${id}`);
      const status = processingStatus(res.body);
      return status === "queued" || status === "pended" ? undefined : status;
    });
    expect(decided).toBe("complete");
  });

  it("a reference of another patient's authorization is not kept", async () => {
    const first = await t.call("POST", "/Claim", { body: body({ ...gold, use: "preauthorization", identifier: "PA-W1", items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] }) });
    const ref = ClaimResponseSchema.parse(first.body).preAuthRef!;
    const other = await t.call("POST", "/Claim", { body: body({ ...nakheel, use: "preauthorization", identifier: "PA-W2", preAuthRef: [ref], items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] }, "PA-W1") });
    expect(ClaimResponseSchema.parse(other.body).preAuthRef).not.toBe(ref);
  });
});

async function partlyPaidClaim(s: TestSandbox, identifier: string): Promise<string> {
  const res = await s.call("POST", "/Claim", { body: body({ ...nakheel, use: "claim", identifier, items: [{ code: "99214", price: 400 }] }) });
  const id = claimId(res.headers.location);
  await waitFor(async () => (processingStatus((await s.call("GET", `/Claim/${id}`)).body) === "partial" ? true : undefined), 10_000);
  return id;
}

const unasked = (identifier: string) => ({
  resourceType: "Communication",
  id: crypto.randomUUID(),
  status: "completed",
  about: [{ type: "Claim", identifier: { system: "https://clinic.example/claims", value: identifier } }],
  sent: new Date().toISOString(),
  payload: [{ contentString: "The specialist's report justifies the price." }],
});

describe("information sent unasked about a partly approved claim (guide v2.7 7.4.2.3)", () => {
  it("is acknowledged, and the decision is reissued approved in full", async () => {
    const id = await partlyPaidClaim(t, "EV-1");
    const sent = await t.call("POST", "/Communication", { body: unasked("EV-1") });
    expect(sent.status).toBeLessThan(300);
    const res = await t.call("GET", `/Claim/${id}`);
    expect(processingStatus(res.body)).toBe("complete");
    const bundle = ClaimResponseSearchBundleSchema.parse((await t.call("GET", `/ClaimResponse?request=${id}`)).body);
    const response = bundle.entry![0]!.resource as unknown as Record<string, unknown>;
    expect(adjudicationAmount(response, 1, "eligible")).toBe(400);
    expect(JSON.stringify(response.extension)).toContain("reissue");
  });

  it("with SANDBOX_EVIDENCE_REISSUE=off it is acknowledged only", async () => {
    const id = await partlyPaidClaim(quiet, "EV-2");
    const sent = await quiet.call("POST", "/Communication", { body: unasked("EV-2") });
    expect(sent.status).toBeLessThan(300);
    expect(processingStatus((await quiet.call("GET", `/Claim/${id}`)).body)).toBe("partial");
  });
});

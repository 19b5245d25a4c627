import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CoverageEligibilityResponseSchema,
  OperationOutcomeSchema,
  PLATFORM_ERROR_SYSTEM,
  platformErrorFromOutcome,
} from "../lib/fhir";
import { eligibilityRequest, errorCode, startTestSandbox, type TestSandbox } from "./test-support";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.stop();
});

const eligibility = (body: unknown, headers?: Record<string, string | undefined>) => t.call("POST", "/CoverageEligibilityRequest", { body, headers });

function expectOutcome(body: Record<string, unknown>, code?: string) {
  const outcome = OperationOutcomeSchema.parse(body);
  expect(outcome.issue[0]?.severity).toBe("error");
  if (code) {
    expect(outcome.issue[0]?.details?.coding?.[0]).toMatchObject({ system: PLATFORM_ERROR_SYSTEM, code });
    expect(outcome.issue[0]?.diagnostics).toBeTruthy();
  }
  return outcome;
}

describe("required headers", () => {
  const body = eligibilityRequest("1000000001", "payer-rimal");

  it("echoes X-Request-ID on success and errors", async () => {
    const id = "3f1c5a52-6a7b-4d5e-9a0b-2c3d4e5f6a7b";
    const ok = await eligibility(body, { "x-request-id": id });
    expect(ok.headers["x-request-id"]).toBe(id);
    const bad = await eligibility(body, { "x-request-id": id, accept: "text/html" });
    expect(bad.headers["x-request-id"]).toBe(id);
  });

  it("401 without a bearer token, with WWW-Authenticate", async () => {
    const res = await t.call("POST", "/CoverageEligibilityRequest", { body, token: null });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    expectOutcome(res.body);
  });

  it("400 when X-Request-ID is missing or not a UUID", async () => {
    const missing = await eligibility(body, { "x-request-id": undefined });
    expect(missing.status).toBe(400);
    expect(missing.headers["x-request-id"]).toBeTruthy();
    const bad = await eligibility(body, { "x-request-id": "not-a-uuid" });
    expect(bad.status).toBe(400);
    expect(bad.headers["x-request-id"]).toBe("not-a-uuid");
    expectOutcome(bad.body);
  });

  it("406 when Accept does not allow application/fhir+json", async () => {
    expect((await eligibility(body, { accept: "application/json" })).status).toBe(406);
    expect((await eligibility(body, { accept: undefined })).status).toBe(406);
    expect((await eligibility(body, { accept: "application/fhir+json; fhirVersion=4.0" })).status).toBe(200);
  });

  it("415 when Content-Type is not application/fhir+json", async () => {
    const res = await eligibility(body, { "content-type": "application/json" });
    expect(res.status).toBe(415);
    expectOutcome(res.body);
    expect((await eligibility(body, { "content-type": "application/fhir+json; charset=utf-8" })).status).toBe(200);
  });

  it("400 for malformed JSON, non-objects and the wrong resource type — never a 500", async () => {
    for (const rawBody of ["{not json", "[]", "42", "", '"text"', "null"]) {
      const res = await t.call("POST", "/CoverageEligibilityRequest", { rawBody, headers: { "content-type": "application/fhir+json" } });
      expect(res.status, rawBody).toBe(400);
      expectOutcome(res.body);
    }
    const wrongType = await eligibility({ ...body, resourceType: "Claim" });
    expect(wrongType.status).toBe(400);
    const wrongShape = await eligibility({ ...body, patient: "Patient/1000000001" });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.body.issue).toBeDefined();
    const wrongPurpose = await eligibility({ ...body, purpose: "benefits" });
    expect(wrongPurpose.status).toBe(400);
  });

  it("404 for unknown paths and 405 for wrong methods, as OperationOutcome", async () => {
    const unknown = await t.call("GET", "/Patient/1000000001");
    expect(unknown.status).toBe(404);
    expectOutcome(unknown.body);
    const wrongMethod = await t.call("DELETE", "/Claim/abc");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET");
  });
});

describe("POST /CoverageEligibilityRequest", () => {
  it("1000000001: in force, benefits of every plan category with allowed and used amounts", async () => {
    const res = await eligibility(eligibilityRequest("1000000001", "payer-rimal"));
    expect(res.status).toBe(200);
    const response = CoverageEligibilityResponseSchema.parse(res.body);
    const insurance = response.insurance?.[0];
    expect(insurance?.inforce).toBe(true);
    expect(insurance?.coverage.reference).toBe("Coverage/cov-1000000001");
    expect(response.patient.reference).toBe("Patient/1000000001");
    expect(response.outcome).toBe("complete");
    const categories = insurance?.item?.map((i) => i.category?.coding?.[0]?.code);
    expect(categories).toEqual(["1", "2", "3", "4", "5", "62", "69", "F6"]);
    const xray = insurance?.item?.find((i) => i.category?.coding?.[0]?.code === "4");
    const money = xray?.benefit?.find((b) => b.type.coding?.[0]?.code === "benefit");
    expect(money?.allowedMoney).toEqual({ value: 8000, currency: "SAR" });
    expect(money?.usedMoney).toEqual({ value: 7800, currency: "SAR" });
    const copay = xray?.benefit?.find((b) => b.type.coding?.[0]?.code === "copay-percent");
    expect(copay?.allowedUnsignedInt).toBe(10);
  });

  it("returns only the requested categories, marking uncovered ones excluded", async () => {
    const res = await eligibility(eligibilityRequest("1000000001", "payer-rimal", ["3", "61"]));
    expect(res.status).toBe(200);
    const items = CoverageEligibilityResponseSchema.parse(res.body).insurance?.[0]?.item ?? [];
    expect(items.map((i) => [i.category?.coding?.[0]?.code, i.excluded])).toEqual([
      ["3", false],
      ["61", true],
    ]);
    expect(items[0]?.benefit?.[0]?.usedMoney?.value).toBe(1250);
  });

  it("validation-only purpose answers inforce without benefit items", async () => {
    const res = await eligibility(eligibilityRequest("1000000001", "payer-rimal", undefined, { purpose: ["validation"] }));
    const insurance = CoverageEligibilityResponseSchema.parse(res.body).insurance?.[0];
    expect(insurance?.inforce).toBe(true);
    expect(insurance?.item).toBeUndefined();
  });

  it("1000000002: coverage exists but is not in force", async () => {
    const res = await eligibility(eligibilityRequest("1000000002", "payer-wadi"));
    expect(res.status).toBe(200);
    const response = CoverageEligibilityResponseSchema.parse(res.body);
    expect(response.insurance?.[0]?.inforce).toBe(false);
    expect(response.insurance?.[0]?.item).toBeUndefined();
  });

  it("1000000003: no coverage → 404 ERR-002", async () => {
    const res = await eligibility(eligibilityRequest("1000000003", "payer-rimal"));
    expect(res.status).toBe(404);
    const outcome = expectOutcome(res.body, "ERR-002");
    expect(platformErrorFromOutcome(outcome)).toMatchObject({ code: "ERR-002", resolution: "Verify the policy" });
  });

  it("coverage with another insurer → 404 ERR-002", async () => {
    const res = await eligibility(eligibilityRequest("1000000001", "payer-wadi"));
    expect(res.status).toBe(404);
    expect(errorCode(res.body)).toBe("ERR-002");
  });

  it("realistic identifiers with a valid check digit work", async () => {
    const res = await eligibility(eligibilityRequest("2087654311", "payer-rimal", ["62"]));
    expect(res.status).toBe(200);
    const item = CoverageEligibilityResponseSchema.parse(res.body).insurance?.[0]?.item?.[0];
    expect(item?.authorizationRequired).toBe(true);
  });

  it.each([
    ["1234567890", "check digit"],
    ["123456789", "length"],
    ["3000000001", "first digit"],
    ["10000000AB", "non-digit"],
    ["1000000100", "just outside the sandbox test range"],
  ])("invalid identifier %s (%s) → 400 ERR-001", async (id) => {
    const res = await eligibility(eligibilityRequest(id, "payer-rimal"));
    expect(res.status).toBe(400);
    const outcome = expectOutcome(res.body, "ERR-001");
    expect(outcome.issue[0]?.diagnostics).toMatch(/patient/);
  });

  it("valid-looking but unknown identifier → 404 ERR-002", async () => {
    const res = await eligibility(eligibilityRequest("1234567897", "payer-rimal"));
    expect(res.status).toBe(404);
    expect(errorCode(res.body)).toBe("ERR-002");
  });

  it("unknown benefit category or wrong system → 422 ERR-003", async () => {
    const res = await eligibility(eligibilityRequest("1000000001", "payer-rimal", ["99"]));
    expect(res.status).toBe(422);
    expectOutcome(res.body, "ERR-003");
    const body = eligibilityRequest("1000000001", "payer-rimal");
    const wrongSystem = await eligibility({ ...body, item: [{ category: { coding: [{ system: "http://example.org/x", code: "3" }] } }] });
    expect(wrongSystem.status).toBe(422);
    const badPurpose = await eligibility({ ...body, purpose: ["benefits", "gossip"] });
    expect(badPurpose.status).toBe(422);
    expect(errorCode(badPurpose.body)).toBe("ERR-003");
  });

  it("missing required fields → 422 ERR-004 naming each field", async () => {
    const body: Record<string, unknown> = eligibilityRequest("1000000001", "payer-rimal");
    delete body.patient;
    delete body.insurer;
    const res = await eligibility(body);
    expect(res.status).toBe(422);
    const outcome = expectOutcome(res.body, "ERR-004");
    expect(outcome.issue.map((i) => i.expression?.[0])).toEqual(["CoverageEligibilityRequest.patient", "CoverageEligibilityRequest.insurer"]);
    expect(outcome.issue[0]?.diagnostics).toContain("CoverageEligibilityRequest.patient");
  });

  it("a provider other than the client's organization → 403", async () => {
    const res = await eligibility(eligibilityRequest("1000000001", "payer-rimal", undefined, { provider: { reference: "Organization/other-clinic" } }));
    expect(res.status).toBe(403);
    expectOutcome(res.body);
  });
});

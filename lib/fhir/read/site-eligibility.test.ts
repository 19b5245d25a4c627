import { describe, expect, it } from "vitest";
import { EXTENSIONS } from "../nphies/extensions";
import { SYSTEMS } from "../nphies/terminology";
import { readCoverageEligibilityResponse } from "./eligibility-response";

/** Decision 075: an insurance the exchange says is out of network at this site is not in force here. */
function answer(site?: string, where: "insurance" | "resource" = "insurance") {
  const extension = site ? [{ url: EXTENSIONS.siteEligibility, valueCodeableConcept: { coding: [{ system: SYSTEMS.siteEligibility, code: site }] } }] : undefined;
  return {
    resourceType: "CoverageEligibilityResponse",
    id: "r1",
    status: "active",
    purpose: ["benefits"],
    patient: { reference: "Patient/1000000001" },
    created: "2026-11-25T09:00:00Z",
    request: { reference: "CoverageEligibilityRequest/q1" },
    outcome: "complete",
    insurer: { reference: "Organization/payer-rimal" },
    ...(where === "resource" && extension ? { extension } : {}),
    insurance: [{ coverage: { reference: "Coverage/cov-1" }, inforce: true, ...(where === "insurance" && extension ? { extension } : {}) }],
  };
}

describe("site eligibility", () => {
  it("without it, the payer's inforce stands", () => {
    const view = readCoverageEligibilityResponse(answer()).view;
    expect(view.inforce).toBe(true);
    expect(view.insurances[0]!.siteEligibility).toBeUndefined();
  });
  it("eligible at this site: in force", () => {
    const view = readCoverageEligibilityResponse(answer("eligible")).view;
    expect(view.inforce).toBe(true);
    expect(view.insurances[0]!.siteEligibility).toEqual({ code: "eligible", inForce: true });
  });
  it.each(["not-in-network", "not-eligible", "some-new-code"])("%s at this site: not in force here, whatever inforce says", (code) => {
    const view = readCoverageEligibilityResponse(answer(code)).view;
    expect(view.inforce).toBe(false);
    expect(view.insurances[0]!.siteEligibility).toEqual({ code, inForce: false });
  });
  it("in force but out of network here says so: in force, not at this site (not 'not in force')", () => {
    expect(readCoverageEligibilityResponse(answer("not-in-network")).view.inForceNotAtSite).toBe(true);
    expect(readCoverageEligibilityResponse(answer("eligible")).view.inForceNotAtSite).toBeUndefined();
    const lapsed = answer("not-in-network");
    lapsed.insurance[0]!.inforce = false;
    expect(readCoverageEligibilityResponse(lapsed).view.inForceNotAtSite).toBeUndefined();
  });
  it("read on the response too, for every insurance", () => {
    expect(readCoverageEligibilityResponse(answer("not-in-network", "resource")).view.inforce).toBe(false);
  });
});

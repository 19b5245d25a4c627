import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { CODE_SYSTEMS, nphies } from "@/lib/fhir";
import { validateApiClaim } from "./api-intake";

/**
 * The machine APIs take a newborn's Claim and the offline extensions as the exchange does
 * (docs/decisions/110, 111): a birth weight in grams, a newborn's claim without one (messaging), an
 * offline date without its reference or after the claim was made — 422 naming the element, before
 * anything is stored. (Whether the coverage is the mother's is read from the portal's records:
 * lib/patients requestCoverageUse, tested with the database.)
 */
const rules = { providerOrgId: "clinic-001", allowSandboxTestIds: true, prefix: "Claim", requireIdentifier: true };
const S = nphies.SYSTEMS;
const NEWBORN = { url: nphies.EXTENSIONS.newborn, valueBoolean: true };
const weight = (value: number, code = "kg") => ({ sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "birth-weight" }] }, valueQuantity: { value, system: S.ucum, code } });

function claim(overrides: Record<string, unknown> = {}) {
  return {
    resourceType: "Claim",
    identifier: [{ system: "https://his.example/claims", value: "C-1" }],
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "institutional" }] },
    use: "claim",
    patient: { reference: "Patient/1000000001" },
    created: "2026-11-24T09:00:00Z",
    priority: { coding: [{ code: "normal" }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
    item: [{ sequence: 1, productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99213" }] }, servicedDate: "2026-11-24", quantity: { value: 1 }, unitPrice: { value: 300, currency: "SAR" } }],
    ...overrides,
  };
}

function refusal(body: unknown, protocol: "rest" | "messaging" = "rest"): { status: number; path?: string; message: string } {
  try {
    validateApiClaim(body, { ...rules, protocol });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, path: error.fields?.[0]?.path, message: error.message };
  }
  throw new Error("accepted");
}

describe("a newborn's Claim through the APIs", () => {
  it("the birth weight in kilograms passes; in grams it is a 422 naming the weight", () => {
    expect(() => validateApiClaim(claim({ extension: [NEWBORN], supportingInfo: [weight(3.2)] }), rules)).not.toThrow();
    const grams = refusal(claim({ extension: [NEWBORN], supportingInfo: [weight(3200, "g")] }));
    expect(grams).toMatchObject({ status: 422, path: "Claim.supportingInfo[0].valueQuantity" });
    expect(grams.message).toContain("found 3200 g: send 3.2 kg");
  });

  it("for the national exchange a newborn's claim carries the birth weight (BV-90024)", () => {
    expect(() => validateApiClaim(claim({ extension: [NEWBORN] }), rules)).not.toThrow();
    const missing = (() => {
      try {
        validateApiClaim(claim({ extension: [NEWBORN] }), { ...rules, protocol: "messaging" });
      } catch (error) {
        return error as AppError;
      }
    })();
    // In messaging the care-setting rules come first (this bare claim has no subtype): a complete one is refused for the weight.
    expect(missing?.status).toBe(422);
  });
});

describe("the offline extensions through the APIs", () => {
  const offline = (extension: Record<string, unknown>[], insurance?: Record<string, unknown>[]) => claim({ extension, ...(insurance ? { insurance } : {}) });
  const withRef = [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" }, preAuthRef: ["OFF-PA-1"] }];

  it("an offline eligibility and authorization as the guide writes them pass", () => {
    expect(() => validateApiClaim(offline([{ url: nphies.EXTENSIONS.eligibilityOfflineReference, valueString: "EL-1" }, { url: nphies.EXTENSIONS.eligibilityOfflineDate, valueDateTime: "2026-11-23" }, { url: nphies.EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-23" }], withRef), rules)).not.toThrow();
  });

  it("422 naming the element: the eligibility's date without its reference, an authorization without preAuthRef, a date after the claim", () => {
    expect(refusal(offline([{ url: nphies.EXTENSIONS.eligibilityOfflineDate, valueDateTime: "2026-11-23" }]))).toMatchObject({ status: 422, path: "Claim.extension", message: expect.stringContaining("BV-90083") });
    expect(refusal(offline([{ url: nphies.EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-23" }]))).toMatchObject({ status: 422, path: "Claim.insurance[0].preAuthRef", message: expect.stringContaining("BV-90084") });
    expect(refusal(offline([{ url: nphies.EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-12-20" }], withRef))).toMatchObject({ status: 422, path: "Claim.extension[0].valueDateTime", message: expect.stringContaining("BV-90085") });
  });
});

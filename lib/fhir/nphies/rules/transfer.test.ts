import type { Bundle, Claim, CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { buildClaim } from "../../builders/claim";
import { buildEligibilityRequest } from "../../builders/eligibility";
import { readClaimResponse } from "../../read/claim-response";
import { readCoverageEligibilityResponse } from "../../read/eligibility-response";
import { DEMO_PARTIES, demoMessages } from "../assemble/demo";
import { assembleMessage } from "../assemble/message";
import { EXTENSIONS } from "../extensions";
import { SYSTEMS } from "../terminology";
import { checkMessage } from "./check";

const today = new Date("2026-11-25T12:00:00Z");
const codes = (bundle: Bundle) => checkMessage(bundle, { today }).findings.map((f) => `${f.code} ${f.expression}`);
const eligibility = demoMessages().find((m) => m.name === "eligibility-request")!;
const focusOf = <T>(bundle: Bundle) => bundle.entry![1]!.resource as T;

function discoveryMessage(): Bundle {
  const request = buildEligibilityRequest({
    identifierValue: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10",
    nationalId: DEMO_PARTIES.patient.id,
    insurerId: DEMO_PARTIES.insurer.id,
    providerOrgId: DEMO_PARTIES.provider.id,
    servicedDate: "2026-11-25",
    purposes: ["discovery", "benefits"],
    categories: [],
    created: today,
  });
  const { coverage: _coverage, ...parties } = DEMO_PARTIES;
  const built = assembleMessage({
    event: "eligibility-request",
    focus: { ...request, id: "00000000-0000-4000-8000-000000000031" },
    parties,
    providerLicense: DEMO_PARTIES.provider.license,
    destination: { payerLicense: DEMO_PARTIES.insurer.license },
    sourceEndpoint: "https://clinic.example/fhir",
    timestamp: today,
    bundleId: "00000000-0000-4000-8000-000000000032",
    headerId: "00000000-0000-4000-8000-000000000033",
  });
  return built.bundle;
}

describe("discovery (guide 7.1, Table 36)", () => {
  it("the builder sends discovery and auth-requirements, and the transfer flag when asked", () => {
    const request = buildEligibilityRequest({ identifierValue: "x", nationalId: "1000000001", insurerId: "payer-rimal", providerOrgId: "clinic-001", servicedDate: "2026-11-25", purposes: ["discovery", "auth-requirements"], categories: [], created: today, transfer: true });
    expect(request.purpose).toEqual(["auth-requirements", "discovery"]);
    expect(request.insurance).toBeUndefined();
    expect(request.extension).toEqual([{ url: EXTENSIONS.transfer, valueBoolean: true }]);
  });

  it("a discovery without a coverage passes every rule; it carries no Coverage entry", () => {
    const bundle = discoveryMessage();
    expect(codes(bundle)).toEqual([]);
    expect(bundle.entry!.some((e) => e.resource?.resourceType === "Coverage")).toBe(false);
    expect(focusOf<CoverageEligibilityRequest>(bundle).insurance).toBeUndefined();
  });

  it("validation or benefits without a coverage is BV-90071; a discovery naming one is BV-90072", () => {
    const bundle = structuredClone(eligibility.built.bundle);
    const focus = focusOf<CoverageEligibilityRequest>(bundle);
    const insurance = focus.insurance;
    delete focus.insurance;
    expect(codes(bundle)).toEqual(["BV-90071 Bundle.entry[1].resource.insurance"]);
    focus.insurance = insurance;
    focus.purpose = ["discovery"];
    expect(codes(bundle)).toEqual(["BV-90072 Bundle.entry[1].resource.insurance[0]"]);
  });

  it("the reader finds the coverages a discovery reports, contained or as message entries", () => {
    const coverage = {
      resourceType: "Coverage",
      id: "cov-9",
      identifier: [{ system: "https://payer.example/member", value: "RML-9" }],
      status: "active",
      beneficiary: { reference: "Patient/1" },
      payor: [{ reference: "Organization/payer-rimal", display: "Rimal" }],
      class: [
        { type: { coding: [{ code: "plan" }] }, value: "Gold" },
        { type: { coding: [{ code: "class" }] }, value: "A" },
      ],
      network: "rimal-net",
      period: { start: "2026-01-01", end: "2026-12-31" },
      costToBeneficiary: [{ valueQuantity: { value: 20, unit: "%", code: "%" } }],
    };
    const response = { resourceType: "CoverageEligibilityResponse", status: "active", purpose: ["discovery"], patient: { reference: "Patient/1" }, created: "2026-11-25T00:00:00Z", request: { reference: "CoverageEligibilityRequest/1" }, outcome: "complete", insurer: { reference: "Organization/payer-rimal" }, insurance: [{ coverage: { reference: "#cov-9" }, inforce: true }] };
    const expected = { coverageId: "cov-9", insurerId: "payer-rimal", insurerName: "Rimal", memberId: "RML-9", plan: "Gold", coverageClass: "A", network: "rimal-net", period: { start: "2026-01-01", end: "2026-12-31" }, copayPercent: 20, inforce: true };
    expect(readCoverageEligibilityResponse({ ...response, contained: [coverage] }).view.discovered).toEqual([expected]);
    const asEntry = { ...response, insurance: [{ coverage: { reference: "Coverage/cov-9" }, inforce: true }] };
    expect(readCoverageEligibilityResponse(asEntry, { resources: [coverage] }).view.discovered).toEqual([expected]);
    expect(readCoverageEligibilityResponse(asEntry).view.discovered).toBeUndefined();
  });
});

describe("transfer of care (guide 7.3, Table 37)", () => {
  const claimMessage = demoMessages().find((m) => m.name === "claim-request-professional")!;

  it("the builder writes the referral: flag, reason for visit, referring provider, authorization date", () => {
    const claim = buildClaim({ use: "claim", nationalId: "1000000001", coverageRef: "cov-1", providerOrgId: "clinic-001", created: today, diagnoses: ["J06.9"], procedures: [], items: [{ code: "99213", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 10000 }], preAuthRefs: ["TR-1"], transfer: true, referral: { providerName: "Referring Clinic", authorizationDate: "2026-11-20" } });
    expect(claim.extension).toEqual([
      { url: EXTENSIONS.transfer, valueBoolean: true },
      { url: EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-20" },
    ]);
    expect(claim.referral).toEqual({ display: "Referring Clinic" });
    expect(claim.supportingInfo).toEqual([{ sequence: 1, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "reason-for-visit" }] }, code: { coding: [{ system: SYSTEMS.visitReason, code: "referral" }] } }]);
    expect(claim.insurance?.[0]?.preAuthRef).toEqual(["TR-1"]);
  });

  it("a referral claim names the referring provider (BV-90075) and the transfer authorization (BV-90076); the reason is a visit-reason code (IC-90071)", () => {
    const bundle = structuredClone(claimMessage.built.bundle);
    const focus = focusOf<Claim>(bundle);
    const n = focus.supportingInfo!.length;
    focus.supportingInfo!.push({ sequence: n + 1, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "reason-for-visit" }] }, code: { coding: [{ system: SYSTEMS.visitReason, code: "referral" }] } });
    expect(codes(bundle)).toEqual(["BV-90075 Bundle.entry[1].resource.referral", "BV-90076 Bundle.entry[1].resource.insurance[0].preAuthRef"]);
    focus.referral = { display: "Referring Clinic" };
    focus.insurance![0]!.preAuthRef = ["TR-1"];
    expect(codes(bundle)).toEqual(["BV-90076 Bundle.entry[1].resource.extension"]);
    focus.extension = [...(focus.extension ?? []), { url: EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-20" }, { url: EXTENSIONS.transfer, valueBoolean: true }];
    expect(codes(bundle)).toEqual([]);
    focus.supportingInfo![n]!.code = { coding: [{ system: SYSTEMS.visitReason, code: "walkin" }] };
    expect(codes(bundle)).toEqual([`IC-90071 Bundle.entry[1].resource.supportingInfo[${n}].code`]);
  });

  it("extension-transfer is a boolean (BV-90073)", () => {
    const bundle = structuredClone(eligibility.built.bundle);
    focusOf<CoverageEligibilityRequest>(bundle).extension = [{ url: EXTENSIONS.transfer, valueString: "yes" }];
    expect(codes(bundle)).toContain("BV-90073 Bundle.entry[1].resource.extension[0]");
  });

  it("the reader takes the transfer authorization's number, period and provider from the answer", () => {
    const response = {
      resourceType: "ClaimResponse",
      status: "active",
      type: { coding: [{ code: "professional" }] },
      use: "preauthorization",
      patient: { reference: "Patient/1" },
      created: "2026-11-25T00:00:00Z",
      insurer: { reference: "Organization/payer-rimal" },
      outcome: "complete",
      preAuthRef: "PA-1",
      extension: [
        { url: EXTENSIONS.transferAuthorizationNumber, valueString: "TR-1" },
        { url: EXTENSIONS.transferAuthorizationPeriod, valuePeriod: { start: "2026-11-25", end: "2026-12-25" } },
        { url: EXTENSIONS.transferAuthorizationProvider, valueReference: { identifier: { system: "http://nphies.sa/license/provider-license", value: "PR-2" }, display: "Hospital" } },
      ],
    };
    const view = readClaimResponse(response).view;
    expect(view.transfer?.number).toBe("TR-1");
    expect(view.transfer?.period).toEqual({ start: "2026-11-25", end: "2026-12-25" });
    expect(view.transfer?.provider?.display).toBe("Hospital");
    expect(view.otherExtensions).toEqual([]);
  });
});

import type { Claim, Coverage, CoverageEligibilityRequest, Extension } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { buildClaim } from "../../builders/claim";
import { buildEligibilityRequest } from "../../builders/eligibility";
import { r4Problems } from "../../messages/r4-schema.test-support";
import { checkMessage } from "../rules/check";
import { EXTENSIONS } from "../extensions";
import { SYSTEMS } from "../terminology";
import { DEMO_BASE, DEMO_PARTIES, demoClaim } from "./demo";
import { assembleMessage } from "./message";
import type { MessageParties } from "./facts";

/**
 * Newborns under the mother's coverage (guide 6.5, docs/decisions/110) and offline approvals
 * (guide Table 10, 7.3 step 4; docs/decisions/111) as the portal writes them: the builders'
 * extensions and birth weight, the assembly's mother entry, and the rule module's checks.
 */
const AT = new Date("2026-11-25T09:00:00.000Z");
const today = new Date("2026-11-25T12:00:00Z");
const BABY = { id: "1077712345", document: "nationalId" as const, number: "1077712345", givenName: "Sara", familyName: "Patient", gender: "female" as const, birthDate: "2026-11-20", maritalStatus: "S" };
const NEWBORN_PARTIES: MessageParties = { ...DEMO_PARTIES, patient: BABY, mother: DEMO_PARTIES.patient };

/** The builder's newborn and offline parts, for a claim with nothing else. */
function parts(input: Partial<Parameters<typeof buildClaim>[0]>): Claim {
  return buildClaim({ use: "claim", nationalId: BABY.id, coverageRef: DEMO_PARTIES.coverage.id, providerOrgId: DEMO_PARTIES.provider.id, created: AT, diagnoses: ["J06.9"], procedures: [], items: [{ code: "X", servicedDate: "2026-11-24", quantity: 1, unitPriceMinor: 100 }], ...input });
}

/** The demo professional claim for the baby, with the builder's newborn and offline parts added. */
function claimMessage(opts: { newborn?: boolean; birthDate?: string; offline?: Parameters<typeof buildClaim>[0]["offline"]; extension?: Extension[]; preAuthRefs?: string[] } = {}) {
  const base = demoClaim("professional", "claim");
  const added = parts({ ...(opts.newborn === false ? {} : { newborn: { birthWeightKg: 3.2 } }), ...(opts.offline ? { offline: opts.offline } : {}), ...(opts.preAuthRefs ? { preAuthRefs: opts.preAuthRefs } : {}) });
  const info = (base.supportingInfo ?? []).length;
  const claim: Claim = {
    ...base,
    patient: { reference: `Patient/${BABY.id}` },
    extension: [...(base.extension ?? []), ...(added.extension ?? []), ...(opts.extension ?? [])],
    supportingInfo: [...(base.supportingInfo ?? []), ...(added.supportingInfo ?? []).map((s, i) => ({ ...s, sequence: info + i + 1 }))],
    insurance: [{ ...base.insurance[0]!, ...(added.insurance[0]!.preAuthRef ? { preAuthRef: added.insurance[0]!.preAuthRef } : {}) }],
  };
  const parties = { ...NEWBORN_PARTIES, patient: { ...BABY, birthDate: opts.birthDate ?? BABY.birthDate } };
  return assembleMessage({ providerLicense: "PR-CLINIC-001", sourceEndpoint: DEMO_BASE, timestamp: AT, bundleId: "00000000-0000-4000-8000-000000000001", headerId: "00000000-0000-4000-8000-000000000002", event: "claim-request", focus: { ...claim, id: "00000000-0000-4000-8000-000000000003" }, parties, destination: { payerLicense: "INS-RIMAL-001" } }).bundle;
}

const codes = (bundle: unknown) => checkMessage(bundle, { today }).findings.map((f) => `${f.code} ${f.expression}`);

describe("the builders' newborn and offline parts", () => {
  it("a newborn's claim: extension-newborn and the birth weight in kilograms (Table 35 birth-weight)", () => {
    const claim = parts({ newborn: { birthWeightKg: 3.2 } });
    expect(claim.extension).toEqual([{ url: EXTENSIONS.newborn, valueBoolean: true }]);
    expect(claim.supportingInfo).toEqual([{ sequence: 1, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "birth-weight" }] }, valueQuantity: { value: 3.2, system: SYSTEMS.ucum, code: "kg", unit: "kg" } }]);
    // Without a recorded weight (a later encounter), the flag alone.
    expect(parts({ newborn: {} }).supportingInfo).toBeUndefined();
    expect(() => parts({ newborn: { birthWeightKg: 0 } })).toThrow(/birth weight/);
  });

  it("offline: the eligibility's reference and date, the authorization's date with its reference as preAuthRef", () => {
    const claim = parts({ offline: { eligibility: { reference: "EL-77", date: "2026-11-23" }, authorization: { reference: "PA-9", date: "2026-11-24" } }, preAuthRefs: ["PA-1"] });
    expect(claim.extension).toEqual([
      { url: EXTENSIONS.eligibilityOfflineReference, valueString: "EL-77" },
      { url: EXTENSIONS.eligibilityOfflineDate, valueDateTime: "2026-11-23" },
      { url: EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-24" },
    ]);
    expect(claim.insurance[0]!.preAuthRef).toEqual(["PA-1", "PA-9"]);
  });

  it("a newborn's eligibility request: the flag and the mother's coverage", () => {
    const request = buildEligibilityRequest({ identifierValue: "e1", nationalId: BABY.id, insurerId: "payer-rimal", providerOrgId: "clinic-1", servicedDate: "2026-11-25", purposes: ["benefits"], categories: [], created: AT, newborn: true, coverageRef: "cov-mother" });
    expect(request.extension).toEqual([{ url: EXTENSIONS.newborn, valueBoolean: true }]);
    expect(request.insurance).toEqual([{ focal: true, coverage: { reference: "Coverage/cov-mother" } }]);
    expect(buildEligibilityRequest({ identifierValue: "e1", nationalId: BABY.id, insurerId: "payer-rimal", providerOrgId: "clinic-1", servicedDate: "2026-11-25", purposes: ["benefits"], categories: [], created: AT }).extension).toBeUndefined();
  });
});

describe("a newborn's message under the mother's coverage", () => {
  it("the mother is the coverage's beneficiary, carried as a Patient entry; every rule passes and the Bundle is valid R4", () => {
    const bundle = claimMessage();
    const coverage = bundle.entry!.find((e) => e.resource?.resourceType === "Coverage")!.resource as Coverage;
    expect(coverage.beneficiary).toEqual({ reference: `Patient/${DEMO_PARTIES.patient.id}` });
    expect(bundle.entry!.filter((e) => e.resource?.resourceType === "Patient").map((e) => e.resource!.id)).toEqual([BABY.id, DEMO_PARTIES.patient.id]);
    expect(codes(bundle)).toEqual([]);
    expect(r4Problems(bundle)).toEqual([]);
  });

  it("refused: without the flag (BV-90025), past the 30 days (BV-90023), without the birth weight (BV-90024)", () => {
    expect(codes(claimMessage({ newborn: false }))).toEqual(["BV-90025 Bundle.entry[1].resource.insurance[0].coverage"]);
    expect(codes(claimMessage({ birthDate: "2026-10-24" }))).toEqual([expect.stringMatching(/^BV-90023 Bundle\.entry\[\d+\]\.resource\.birthDate$/)]);
    expect(codes(claimMessage({ birthDate: "2026-10-25" }))).toEqual([]);
    // Guide 6.5: the weight is required only on the birth encounter (a service on the birth date, decision 120).
    const withoutWeight = (birthDate: string) => {
      const m = claimMessage({ birthDate });
      const focus = m.entry![1]!.resource as Claim;
      focus.supportingInfo = focus.supportingInfo!.filter((s) => s.category.coding?.[0]?.code !== "birth-weight");
      return m;
    };
    expect(codes(withoutWeight("2026-11-24"))).toEqual(["BV-90024 Bundle.entry[1].resource.supportingInfo"]);
    // A later visit within the 30 days (born on the 20th, seen on the 24th): the flag alone passes.
    expect(codes(withoutWeight("2026-11-20"))).toEqual([]);
  });

  it("the eligibility request: the flag on the mother's coverage passes", () => {
    const request = buildEligibilityRequest({ identifierValue: "00000000-0000-4000-8000-000000000009", nationalId: BABY.id, insurerId: DEMO_PARTIES.insurer.id, providerOrgId: DEMO_PARTIES.provider.id, servicedDate: "2026-11-25", purposes: ["benefits", "validation"], categories: [], created: AT, facilityLocationId: DEMO_PARTIES.location!.id, priority: "normal", servicedPeriod: { start: "2026-11-25", end: "2026-11-25" }, coverageRef: DEMO_PARTIES.coverage.id, newborn: true });
    const bundle = assembleMessage({ providerLicense: "PR-CLINIC-001", sourceEndpoint: DEMO_BASE, timestamp: AT, bundleId: "00000000-0000-4000-8000-000000000011", headerId: "00000000-0000-4000-8000-000000000012", event: "eligibility-request", focus: { ...request, id: "00000000-0000-4000-8000-000000000013" }, parties: NEWBORN_PARTIES, destination: { payerLicense: "INS-RIMAL-001" } }).bundle;
    expect(codes(bundle)).toEqual([]);
    // Without the flag, the mother's coverage is someone else's.
    const plain = structuredClone(bundle);
    delete (plain.entry![1]!.resource as CoverageEligibilityRequest).extension;
    expect(codes(plain)).toEqual(["BV-90025 Bundle.entry[1].resource.insurance[0].coverage"]);
  });
});

describe("the offline extensions' rules", () => {
  const offline = { eligibility: { reference: "EL-77", date: "2026-11-23" }, authorization: { reference: "PA-9", date: "2026-11-24T10:00:00+03:00" } };

  it("an offline eligibility and authorization as the portal writes them pass", () => {
    expect(codes(claimMessage({ offline }))).toEqual([]);
  });

  it("BV-90085: an offline date after the claim was created", () => {
    expect(codes(claimMessage({ offline: { eligibility: { reference: "EL-77", date: "2026-12-02" } } }))).toEqual([expect.stringMatching(/^BV-90085 Bundle\.entry\[1\]\.resource\.extension\[\d+\]\.valueDateTime$/)]);
    // The same day as created (the insurer's day may be ahead of UTC) passes.
    expect(codes(claimMessage({ offline: { eligibility: { reference: "EL-77", date: "2026-11-25" } } }))).toEqual([]);
  });

  it("BV-90083: the eligibility's date without its reference; BV-90082: a date of the wrong type", () => {
    expect(codes(claimMessage({ extension: [{ url: EXTENSIONS.eligibilityOfflineDate, valueDateTime: "2026-11-23" }] }))).toEqual(["BV-90083 Bundle.entry[1].resource.extension"]);
    expect(codes(claimMessage({ extension: [{ url: EXTENSIONS.eligibilityOfflineReference, valueString: "EL-1" }, { url: EXTENSIONS.eligibilityOfflineDate, valueDate: "2026-11-23" } as Extension] }))).toEqual([expect.stringMatching(/^BV-90082 Bundle\.entry\[1\]\.resource\.extension\[\d+\]$/)]);
  });

  it("BV-90084: an offline authorization without the reference the insurer gave (preAuthRef)", () => {
    expect(codes(claimMessage({ extension: [{ url: EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-24" }] }))).toEqual(["BV-90084 Bundle.entry[1].resource.insurance[0].preAuthRef"]);
  });

  it("BV-90081: the offline extensions belong on a Claim, not on an eligibility request", () => {
    const request = buildEligibilityRequest({ identifierValue: "00000000-0000-4000-8000-000000000019", nationalId: DEMO_PARTIES.patient.id, insurerId: DEMO_PARTIES.insurer.id, providerOrgId: DEMO_PARTIES.provider.id, servicedDate: "2026-11-25", purposes: ["benefits"], categories: [], created: AT, facilityLocationId: DEMO_PARTIES.location!.id, priority: "normal", coverageRef: DEMO_PARTIES.coverage.id });
    const focus = { ...request, id: "00000000-0000-4000-8000-000000000023", extension: [{ url: EXTENSIONS.eligibilityOfflineReference, valueString: "EL-1" }] };
    const bundle = assembleMessage({ providerLicense: "PR-CLINIC-001", sourceEndpoint: DEMO_BASE, timestamp: AT, bundleId: "00000000-0000-4000-8000-000000000021", headerId: "00000000-0000-4000-8000-000000000022", event: "eligibility-request", focus, parties: DEMO_PARTIES, destination: { payerLicense: "INS-RIMAL-001" } }).bundle;
    expect(codes(bundle)).toEqual(["BV-90081 Bundle.entry[1].resource.extension[0]"]);
  });
});

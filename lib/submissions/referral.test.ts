import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { buildClaim, CODE_SYSTEMS, nphies } from "@/lib/fhir";
import { validateApiClaim } from "./api-intake";
import { referralIssues, submissionFormSchema } from "./form-schema";
import { newbornOf, referralOf } from "./form-service";

/**
 * Transfer of care on the forms and the machine APIs (guide v2.7 7.3, Table 37; decision 120), and
 * the birth weight only on the birth encounter (6.5): the field errors in words, what the form
 * hands the Claim builder, what the builder writes, the API's 422 naming the element.
 */
const NONE = { active: false, provider: "", reference: "", date: "" };
const NO_OFFLINE = { reference: "", date: "" };
const codes = (issues: { path: (string | number)[]; message: string }[]) => issues.map((i) => `${i.path.join(".")}:${i.message}`);

describe("the referral's field errors", () => {
  it("a complete referral claim passes; an incomplete one names each missing field", () => {
    expect(referralIssues({ use: "claim", transfer: false, referral: { active: true, provider: "Riyadh Family Clinic", reference: "TR-77", date: "2026-11-20" }, offlineAuthorization: NO_OFFLINE }, "2026-11-25")).toEqual([]);
    expect(codes(referralIssues({ use: "claim", transfer: false, referral: { active: true, provider: "", reference: "", date: "" }, offlineAuthorization: NO_OFFLINE }, "2026-11-25"))).toEqual([
      "referral.provider:referralProviderRequired",
      "referral.reference:referralReferenceRequired",
      "referral.date:referralDateRequired",
    ]);
  });

  it("a prior authorization extending the referral (step 5) needs no date; a future date is refused", () => {
    expect(referralIssues({ use: "preauthorization", transfer: false, referral: { active: true, provider: "Clinic A", reference: "TR-1", date: "" }, offlineAuthorization: NO_OFFLINE }, "2026-11-25")).toEqual([]);
    expect(codes(referralIssues({ use: "claim", transfer: false, referral: { active: true, provider: "Clinic A", reference: "TR-1", date: "2026-12-01" }, offlineAuthorization: NO_OFFLINE }, "2026-11-25"))).toEqual(["referral.date:referralDateFuture"]);
  });

  it("the transfer flag is a prior authorization's; not with a referral, nor a referral with an offline authorization", () => {
    expect(referralIssues({ use: "preauthorization", transfer: true, referral: NONE, offlineAuthorization: NO_OFFLINE })).toEqual([]);
    expect(codes(referralIssues({ use: "claim", transfer: true, referral: NONE, offlineAuthorization: NO_OFFLINE }))).toEqual(["transfer:transferOnlyAuthorization"]);
    expect(codes(referralIssues({ use: "claim", transfer: false, referral: { active: true, provider: "A", reference: "TR-1", date: "2026-11-20" }, offlineAuthorization: { reference: "OFF-1", date: "2026-11-20" } }, "2026-11-25"))).toEqual(["referral.reference:referralWithOffline"]);
  });

  it("the form's schema refuses a transfer number of other characters as a field error", () => {
    const parsed = submissionFormSchema.safeParse({ use: "claim", referral: { active: true, provider: "", reference: "TR 1", date: "" } });
    expect(parsed.success).toBe(false);
    const paths = parsed.error!.issues.map((i) => `${i.path.join(".")}:${i.message}`);
    expect(paths).toContain("referral.reference:referralReferenceInvalid");
  });
});

describe("what the form hands the Claim builder", () => {
  const base = { created: new Date("2026-11-25T09:00:00Z"), nationalId: "1000000001", coverageRef: "cov-1", providerOrgId: "clinic-1", diagnoses: ["M54.5"], procedures: [], items: [{ code: "IMG-3003", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 250000 }] } as const;

  it("the referring request: extension-transfer true on a prior authorization, nothing on a claim", () => {
    expect(referralOf({ use: "preauthorization", transfer: true, referral: NONE })).toEqual({ transfer: true });
    expect(referralOf({ use: "claim", transfer: true, referral: NONE })).toEqual({});
    const claim = buildClaim({ ...base, use: "preauthorization", ...referralOf({ use: "preauthorization", transfer: true, referral: NONE }) });
    expect(claim.extension).toContainEqual({ url: nphies.EXTENSIONS.transfer, valueBoolean: true });
  });

  it("the receiving facility's claim: reason for visit referral, the referring provider, the transfer number as preAuthRef and its date", () => {
    const referral = { active: true, provider: "Riyadh Family Clinic", reference: "TR-9", date: "2026-11-24" };
    const claim = buildClaim({ ...base, use: "claim", preAuthRefs: ["TR-9"], ...referralOf({ use: "claim", transfer: false, referral }) });
    expect(claim.referral).toEqual({ display: "Riyadh Family Clinic" });
    expect(claim.insurance![0]!.preAuthRef).toEqual(["TR-9"]);
    expect(claim.extension).toContainEqual({ url: nphies.EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-24" });
    expect(claim.supportingInfo!.some((i) => i.category.coding?.[0]?.code === "reason-for-visit" && i.code?.coding?.[0]?.code === "referral")).toBe(true);
    // The rule module agrees: no transfer finding.
    expect(nphies.transferFindings(claim as unknown as Record<string, unknown>, "Claim")).toEqual([]);
  });

  it("the birth weight only on the birth encounter (a line or the admission on the birth date)", () => {
    const baby = { birthDate: "2026-11-20" };
    expect(newbornOf({ items: [{ servicedDate: "2026-11-20" }] as never, admission: "" }, baby, { birthWeightKg: 3.2 })).toEqual({ birthWeightKg: 3.2 });
    expect(newbornOf({ items: [{ servicedDate: "2026-11-24" }] as never, admission: "2026-11-20T06:40" }, baby, { birthWeightKg: 3.2 })).toEqual({ birthWeightKg: 3.2 });
    expect(newbornOf({ items: [{ servicedDate: "2026-11-24" }] as never, admission: "" }, baby, { birthWeightKg: 3.2 })).toEqual({});
  });
});

describe("the machine APIs refuse an incomplete referral (422 naming the element)", () => {
  const rules = { providerOrgId: "clinic-001", allowSandboxTestIds: true, prefix: "Claim", requireIdentifier: true };
  const S = nphies.SYSTEMS;
  const reason = { sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "reason-for-visit" }] }, code: { coding: [{ system: S.visitReason, code: "referral" }] } };
  const claim = (overrides: Record<string, unknown>) => ({
    resourceType: "Claim",
    identifier: [{ system: "https://his.example/claims", value: "C-1" }],
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] },
    use: "claim",
    patient: { reference: "Patient/1000000001" },
    created: "2026-11-24T09:00:00Z",
    priority: { coding: [{ code: "normal" }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" }, preAuthRef: ["TR-9"] }],
    item: [{ sequence: 1, productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99213" }] }, servicedDate: "2026-11-24", quantity: { value: 1 }, unitPrice: { value: 300, currency: "SAR" } }],
    supportingInfo: [reason],
    ...overrides,
  });
  const refusal = (body: unknown) => {
    try {
      validateApiClaim(body, rules);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { status: error.status, path: error.fields?.[0]?.path, message: error.message };
    }
    throw new Error("accepted");
  };

  it("a complete referral claim passes; without the referring provider or the authorization's date it is a 422", () => {
    const date = { url: nphies.EXTENSIONS.authorizationOfflineDate, valueDateTime: "2026-11-23" };
    expect(() => validateApiClaim(claim({ referral: { display: "Riyadh Family Clinic" }, extension: [date] }), rules)).not.toThrow();
    expect(refusal(claim({ extension: [date] }))).toMatchObject({ status: 422, path: "Claim.referral", message: expect.stringContaining("BV-90075") });
    expect(refusal(claim({ referral: { display: "Riyadh Family Clinic" } }))).toMatchObject({ status: 422, path: "Claim.extension", message: expect.stringContaining("BV-90076") });
  });

  it("extension-transfer that is not a boolean is a 422", () => {
    expect(refusal(claim({ use: "preauthorization", supportingInfo: [], extension: [{ url: nphies.EXTENSIONS.transfer, valueString: "yes" }] }))).toMatchObject({ status: 422, message: expect.stringContaining("BV-90073") });
  });
});

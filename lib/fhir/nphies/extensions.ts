import { extensionUrl } from "./canonical";

/**
 * Extension URLs of the exchange that the portal writes or the sandbox reads. Names follow the
 * guide's `extension-<name>` pages; the comment says where each sits and what its value is.
 */
export const EXTENSIONS = {
  /** Claim.item (.detail, .subDetail): Money — the amount due from the patient. */
  patientShare: extensionUrl("patient-share"),
  /** Claim.item (.detail, .subDetail): Money — VAT on the line. */
  tax: extensionUrl("tax"),
  /** Claim.item: boolean — the line is a package (its details are the package's contents). */
  package: extensionUrl("package"),
  /** Claim.item: CodeableConcept — a drug the pharmacist dispensed instead of the one prescribed. */
  prescribedMedication: extensionUrl("prescribed-Medication"),
  pharmacistSelectionReason: extensionUrl("pharmacist-Selection-Reason"),
  pharmacistSubstitute: extensionUrl("pharmacist-substitute"),
  /** Claim: Identifier — the provider's episode of care the claim belongs to. */
  episode: extensionUrl("episode"),
  /** Claim: Reference(Encounter) — the encounter of the claim (required for inpatient and emergency). */
  encounter: extensionUrl("encounter"),
  /** Claim: Period — the accounting period a claim is billed in (claims only). */
  accountingPeriod: extensionUrl("accountingPeriod"),
  /** Claim: Reference(CoverageEligibilityResponse) — the eligibility answer the request relies on. */
  eligibilityResponse: extensionUrl("eligibility-response"),
  eligibilityOfflineReference: extensionUrl("eligibility-offline-reference"),
  eligibilityOfflineDate: extensionUrl("eligibility-offline-date"),
  authorizationOfflineDate: extensionUrl("authorization-offline-date"),
  /** Claim / CoverageEligibilityRequest: boolean — the patient is a newborn covered under the mother. */
  newborn: extensionUrl("newborn"),
  /** Patient: CodeableConcept (occupation code system) — required by the Patient profile. */
  occupation: extensionUrl("occupation"),
  patientReligion: extensionUrl("patient-religion"),
  /** Organization (provider): CodeableConcept (provider-type). */
  providerType: extensionUrl("provider-type"),
  /**
   * CoverageEligibilityResponse (the guide's invariant BV-00503 puts it on the resource; the
   * sandbox also repeats it on each insurance): CodeableConcept (siteEligibility).
   */
  siteEligibility: extensionUrl("siteEligibility"),
  /** ClaimResponse, .item, .addItem: CodeableConcept (adjudication-outcome). */
  adjudicationOutcome: extensionUrl("adjudication-outcome"),
  /** ClaimResponse: CodeableConcept (reissue-reason) — why the payer reissued an earlier decision (guide Table 10; `cancel` for an advanced authorization the payer withdraws, 7.9.2). */
  adjudicationReissue: extensionUrl("adjudication-reissue"),
  /** Batch-request claims: the batch's identifier, the claim's number in it, the period it covers. */
  batchIdentifier: extensionUrl("batch-identifier"),
  batchNumber: extensionUrl("batch-number"),
  batchPeriod: extensionUrl("batch-period"),
  /**
   * PaymentReconciliation.detail: Money — the parts of a claim's payment (guide v2.7 profile release
   * note 4.1: component-payment, component-early-fee, component-nphies-fee): what the payer applies to
   * the claim, the early-payment discount it keeps, and the exchange's fee; detail.amount is what
   * reaches the clinic (payment − early-payment fee − exchange fee). Docs/decisions/098.
   */
  componentPayment: extensionUrl("component-payment"),
  componentEarlyFee: extensionUrl("component-early-fee"),
  componentNphiesFee: extensionUrl("component-nphies-fee"),
  /** Task (errors) and ClaimResponse.error: string — FHIRPath of the element an error concerns. */
  errorExpression: extensionUrl("error-expression"),
} as const;

export type ExtensionKey = keyof typeof EXTENSIONS;

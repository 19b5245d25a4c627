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
  /**
   * A prescriber's predetermination (guide 7.11, Table 10 v2.0–2.2): Claim.item `prescription`
   * (Reference) names the line's MedicationRequest; `strength` (string) the medicine's strength;
   * `absence-of-scientific-code` (CodeableConcept) why a line names a GTIN, not a scientific code.
   */
  prescription: extensionUrl("prescription"),
  strength: extensionUrl("strength"),
  absenceOfScientificCode: extensionUrl("absence-of-scientific-code"),
  /** Claim: Identifier — the provider's episode of care the claim belongs to. */
  episode: extensionUrl("episode"),
  /** Claim: Reference(Encounter) — the encounter of the claim (required for inpatient and emergency). */
  encounter: extensionUrl("encounter"),
  /** Claim: date — the accounting period a claim is billed in, the first day of its month (claims only; guide Table 10). */
  accountingPeriod: extensionUrl("accountingPeriod"),
  /** Claim: Reference(CoverageEligibilityResponse) — the eligibility answer the request relies on. */
  eligibilityResponse: extensionUrl("eligibility-response"),
  /**
   * Claim (prior authorization and claim, guide Table 10 p. 53): what the insurer gave when the
   * exchange could not be reached — the offline eligibility's reference (string) and date
   * (dateTime), and the date of an offline authorization (dateTime) whose reference travels in
   * insurance.preAuthRef (7.3 step 4).
   */
  eligibilityOfflineReference: extensionUrl("eligibility-offline-reference"),
  eligibilityOfflineDate: extensionUrl("eligibility-offline-date"),
  authorizationOfflineDate: extensionUrl("authorization-offline-date"),
  /** Claim / CoverageEligibilityRequest: boolean — the patient is a newborn covered under the mother. */
  newborn: extensionUrl("newborn"),
  /**
   * Transfer of care (guide 7.3, Table 37): boolean on the referring prior authorization and on the
   * receiving facility's eligibility request and claim. The payer's answer to the referral names
   * the receiving provider's authorization (Table 10): its number (string), period (Period) and
   * the provider it is for (Reference(Organization | Practitioner)), on the ClaimResponse.
   */
  transfer: extensionUrl("transfer"),
  transferAuthorizationNumber: extensionUrl("transferAuthorizationNumber"),
  transferAuthorizationPeriod: extensionUrl("transferAuthorizationPeriod"),
  transferAuthorizationProvider: extensionUrl("transferAuthorizationProvider"),
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

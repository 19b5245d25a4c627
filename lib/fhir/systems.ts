import { EXTENSIONS } from "./nphies/extensions";
import { profileOf } from "./nphies/profiles";
import { LICENSES, SYSTEMS } from "./nphies/terminology";

/**
 * Code systems, identifier systems and extension URLs used on the platform FHIR interface.
 *
 * The specification names the systems only in words ("the platform error-code system URI",
 * "the standard benefit-category code system", "ICD-10-AM", "CPT"). Standard HL7 terminology
 * keeps its canonical URL; platform-specific URIs live under `https://platform.example/` — a
 * reserved, fictional host — until the production platform publishes its own. Changing one of
 * these is a one-line edit here, and both the portal and the sandbox follow.
 */

/** Base of platform-specific URIs (fictional; replace with the platform's published base). */
export const PLATFORM_URI_BASE = "https://platform.example/fhir";

/** System of `OperationOutcome.issue[].details.coding[].code` values ERR-001…ERR-005. */
export const PLATFORM_ERROR_SYSTEM = `${PLATFORM_URI_BASE}/CodeSystem/error-code`;

/**
 * Extension on Claim and ClaimResponse carrying the platform's processing status
 * (`valueCode`, one of {@link CLAIM_PROCESSING_STATUSES}). FHIR's own `Claim.status` stays `active`.
 */
export const CLAIM_PROCESSING_STATUS_EXTENSION = `${PLATFORM_URI_BASE}/StructureDefinition/claim-processing-status`;

export const CLAIM_PROCESSING_STATUSES = ["queued", "pended", "complete", "partial", "denied", "cancelled"] as const;
export type ClaimProcessingStatus = (typeof CLAIM_PROCESSING_STATUSES)[number];

/**
 * The platform sandbox's own adjudication reasons (`price-list`, `preauth-required`,
 * `coverage-inactive`). HL7's adjudication-reason system defines only ar001 and ar002, so the
 * sandbox's rules get a system of their own.
 */
export const SANDBOX_ADJUDICATION_REASON_SYSTEM = `${PLATFORM_URI_BASE}/CodeSystem/adjudication-reason`;

/**
 * Benefit types HL7's R4 benefit-type system lacks: the annual out-of-pocket maximum
 * (`out-of-pocket-maximum`). R4 has `deductible` but no out-of-pocket code (its `copay-maximum` is
 * per service), and the binding of `benefit.type` is an example, so the platform codes it in a
 * system of its own (docs/decisions/091).
 */
export const PLATFORM_BENEFIT_TYPE_SYSTEM = `${PLATFORM_URI_BASE}/CodeSystem/benefit-type`;

/**
 * Terminology of the national exchange that the readers understand in any platform's answers: the
 * per-item adjudication outcome, the extra adjudication categories (approved quantity …) and the
 * licence identifier systems — names over the one rule module, lib/fhir/nphies (decision 056).
 */
export const NATIONAL_EXCHANGE = {
  /** Extension on ClaimResponse, .item and .addItem: valueCodeableConcept from {@link NATIONAL_EXCHANGE.adjudicationOutcomeSystem}. */
  adjudicationOutcomeExtension: EXTENSIONS.adjudicationOutcome,
  /** Extension on ClaimResponse: valueCodeableConcept — the reason a decision was reissued. */
  reissueExtension: EXTENSIONS.adjudicationReissue,
  reissueReasonSystem: SYSTEMS.reissueReason,
  /** approved | rejected | partial | pended | not-required */
  adjudicationOutcomeSystem: SYSTEMS.adjudicationOutcome,
  /** Adjudication categories added to HL7's: discount, rejected, patientShare, approved-quantity … */
  adjudicationSystem: SYSTEMS.adjudication,
  adjudicationReasonSystem: SYSTEMS.adjudicationReason,
  providerLicense: LICENSES.provider,
  payerLicense: LICENSES.payer,
  /** The exchange itself as a message destination (polls, payment notices). */
  exchangeLicense: LICENSES.nphies,
  /** `MessageHeader.eventCoding` system (eligibility-request, claim-response, poll-request …). */
  messageEventSystem: SYSTEMS.messageEvents,
  /** `Bundle.meta.tag` system; `queued-messages` says more messages wait for the next poll. */
  metaTagSystem: SYSTEMS.metaTags,
  /** `Task.code` system of poll-request, cancel-request, status-check Tasks. */
  taskCodeSystem: SYSTEMS.taskCode,
  /** `Task.reasonCode` system of cancel-request Tasks (WI, NP, TAS, SU, resubmission). */
  taskReasonSystem: SYSTEMS.taskReason,
  /** `Task.input.type` / `Task.output.type` system (count, include-message-type, error …). */
  taskInputTypeSystem: SYSTEMS.taskInputType,
  taskOutputTypeSystem: SYSTEMS.taskOutputType,
  /** Extensions on each Claim of a batch-request: the batch's identifier, the claim's place in it, the period the batch covers. */
  batchIdentifierExtension: EXTENSIONS.batchIdentifier,
  batchNumberExtension: EXTENSIONS.batchNumber,
  batchPeriodExtension: EXTENSIONS.batchPeriod,
  /** Profiles of the message envelope. */
  bundleProfile: profileOf("bundle"),
  messageHeaderProfile: profileOf("messageHeader"),
} as const;

/** Events the portal sends (`MessageHeader.eventCoding.code`). */
export const MESSAGE_REQUEST_EVENTS = [
  "eligibility-request",
  "priorauth-request",
  "claim-request",
  "batch-request",
  /** A prescriber's pharmacy Claim, answered at once with a prescriber-response (docs/decisions/071). */
  "prescriber-request",
  "poll-request",
  "cancel-request",
  "status-check",
  "communication",
  "payment-notice",
] as const;
export type MessageRequestEvent = (typeof MESSAGE_REQUEST_EVENTS)[number];

/** Events the portal reads in replies and polls. */
export const MESSAGE_REPLY_EVENTS = [
  "eligibility-response",
  "priorauth-response",
  "claim-response",
  "batch-response",
  "prescriber-response",
  "poll-response",
  "cancel-response",
  "status-check-response",
  "communication-request",
  "payment-reconciliation",
  "acknowledgement",
  // A payer's advanced authorization, unasked (guide v2.7 Tables 11-12; the web guide's name; docs/decisions/101).
  "advanced-authorization",
  "advanced-priorauth",
] as const;
export type MessageReplyEvent = (typeof MESSAGE_REPLY_EVENTS)[number];

/** The `queued-messages` meta tag: more messages wait at the exchange; poll again at once. */
export const QUEUED_MESSAGES_TAG = "queued-messages";

export const ADJUDICATION_OUTCOMES = ["approved", "rejected", "partial", "pended", "not-required"] as const;
export type AdjudicationOutcome = (typeof ADJUDICATION_OUTCOMES)[number];

/**
 * Identifier systems and extensions of the portal itself (its own answers on /api/exchange and
 * /fhir). `clinic.example` is the portal's fictional base, as `platform.example` is the platform's.
 */
export const PORTAL_URI_BASE = "https://clinic.example/fhir";
/** Extension on the ClaimResponse the portal answers with: valueCode = the submission's state. */
export const PORTAL_SUBMISSION_STATUS_EXTENSION = `${PORTAL_URI_BASE}/StructureDefinition/submission-status`;
/** The identifier that names a submission in the portal (its UUID): first identifier of every acknowledgement, both APIs. */
export const PORTAL_SUBMISSION_ID_SYSTEM = `${PORTAL_URI_BASE}/submission-id`;
/** CodeSystem of the portal's submission states (the status Parameters' `status`). */
export const PORTAL_SUBMISSION_STATUS_SYSTEM = `${PORTAL_URI_BASE}/CodeSystem/submission-status`;
/** Base of the portal's Claim business identifier system (`…/claim-id/<provider org id>`). */
export const PORTAL_CLAIM_IDENTIFIER_SYSTEM_BASE = `${PORTAL_URI_BASE}/claim-id`;

export const IDENTIFIER_SYSTEMS = {
  /** Saudi-style national ID (citizens, first digit 1) and Iqama (residents, first digit 2). */
  nationalId: `${PLATFORM_URI_BASE}/identifier/national-id`,
  /** Identifiers the platform assigns to its own responses. */
  platformResponse: `${PLATFORM_URI_BASE}/identifier/response`,
  /** Prior-authorization references issued by the platform (`ClaimResponse.preAuthRef`). */
  preAuthRef: `${PLATFORM_URI_BASE}/identifier/pre-auth-ref`,
} as const;

export const CODE_SYSTEMS = {
  /** Claim.related.relationship (HL7): `prior` links a resubmission to the claim it replaces (decisions 045–048). */
  relatedClaimRelationship: "http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship",
  /** HL7 benefit categories (CoverageEligibilityRequest.item.category, benefit items). */
  benefitCategory: "http://terminology.hl7.org/CodeSystem/ex-benefitcategory",
  /** Benefit types (CoverageEligibilityResponse.insurance.item.benefit.type). */
  benefitType: "http://terminology.hl7.org/CodeSystem/benefit-type",
  /** Adjudication categories (ClaimResponse.item.adjudication.category). */
  adjudication: "http://terminology.hl7.org/CodeSystem/adjudication",
  /** Adjudication reasons (ClaimResponse.item.adjudication.reason). */
  adjudicationReason: "http://terminology.hl7.org/CodeSystem/adjudication-reason",
  claimType: "http://terminology.hl7.org/CodeSystem/claim-type",
  processPriority: "http://terminology.hl7.org/CodeSystem/processpriority",
  paymentType: "http://terminology.hl7.org/CodeSystem/ex-paymenttype",
  supportingInfoCategory: "http://terminology.hl7.org/CodeSystem/claiminformationcategory",
  /** ICD-10-AM diagnoses (licensed code set; see docs). */
  icd10am: "http://hl7.org/fhir/sid/icd-10-am",
  /** CPT procedures and services (licensed code set; see docs). */
  cpt: "http://www.ama-assn.org/go/cpt",
  /** Eligibility benefit qualifiers (CoverageEligibilityResponse.insurance.item.network/unit/term). */
  benefitNetwork: "http://terminology.hl7.org/CodeSystem/benefit-network",
  benefitUnit: "http://terminology.hl7.org/CodeSystem/benefit-unit",
  benefitTerm: "http://terminology.hl7.org/CodeSystem/benefit-term",
  /** ClaimResponse.processNote.type and similar (display | print | printoper). */
  noteType: "http://hl7.org/fhir/note-type",
  /** ClaimResponse.error.code (HL7 example adjudication errors). */
  adjudicationError: "http://terminology.hl7.org/CodeSystem/adjudication-error",
  /** RFC 3986 URN for UUIDs — used by the platform for ids and X-Request-ID. */
  urnUuid: "urn:ietf:rfc:3986",
} as const;

export interface BilingualDisplay {
  en: string;
  ar: string;
}

/** The standard HL7 benefit categories with English (HL7 display) and Arabic names. */
export const BENEFIT_CATEGORIES = {
  "1": { en: "Medical Care", ar: "الرعاية الطبية" },
  "2": { en: "Surgical", ar: "الجراحة" },
  "3": { en: "Consultation", ar: "الاستشارة" },
  "4": { en: "Diagnostic XRay", ar: "الأشعة السينية التشخيصية" },
  "5": { en: "Diagnostic Lab", ar: "المختبر التشخيصي" },
  "14": { en: "Renal Supplies", ar: "مستلزمات الكلى" },
  "23": { en: "Diagnostic Dental", ar: "تشخيص الأسنان" },
  "24": { en: "Periodontics", ar: "علاج اللثة" },
  "25": { en: "Restorative", ar: "ترميم الأسنان" },
  "26": { en: "Endodontics", ar: "علاج جذور الأسنان" },
  "27": { en: "Maxillofacial Prosthetics", ar: "التعويضات الفكية والوجهية" },
  "28": { en: "Adjunctive Dental Services", ar: "خدمات الأسنان المساندة" },
  "30": { en: "Health Benefit Plan Coverage", ar: "تغطية خطة المنافع الصحية" },
  "35": { en: "Dental Care", ar: "رعاية الأسنان" },
  "36": { en: "Dental Crowns", ar: "تيجان الأسنان" },
  "37": { en: "Dental Accident", ar: "حوادث الأسنان" },
  "49": { en: "Hospital Room and Board", ar: "الإقامة والإعاشة في المستشفى" },
  "55": { en: "Major Medical", ar: "التغطية الطبية الكبرى" },
  "56": { en: "Medically Related Transportation", ar: "النقل لأغراض طبية" },
  "61": { en: "In-vitro Fertilization", ar: "التلقيح الصناعي (أطفال الأنابيب)" },
  "62": { en: "MRI Scan", ar: "التصوير بالرنين المغناطيسي" },
  "63": { en: "Donor Procedures", ar: "إجراءات المتبرعين" },
  "69": { en: "Maternity", ar: "الأمومة" },
  "76": { en: "Renal Dialysis", ar: "غسيل الكلى" },
  F1: { en: "Medical Coverage", ar: "التغطية الطبية" },
  F3: { en: "Dental Coverage", ar: "تغطية الأسنان" },
  F4: { en: "Hearing Coverage", ar: "تغطية السمع" },
  F6: { en: "Vision Coverage", ar: "تغطية البصر" },
} as const satisfies Record<string, BilingualDisplay>;

export type BenefitCategoryCode = keyof typeof BENEFIT_CATEGORIES;

export function isBenefitCategoryCode(code: string): code is BenefitCategoryCode {
  return Object.prototype.hasOwnProperty.call(BENEFIT_CATEGORIES, code);
}

/** Name of a benefit category in the UI language (standard names), else the payer's label or the code. */
export function benefitCategoryName(code: string, locale: string, payerName?: string): string {
  if (isBenefitCategoryCode(code)) return BENEFIT_CATEGORIES[code][locale === "ar" ? "ar" : "en"];
  return payerName ?? code;
}

/** Adjudication categories used by the platform, in the order they appear on an item. */
export const ADJUDICATION_CATEGORIES = {
  submitted: { en: "Submitted Amount", ar: "المبلغ المطالب به" },
  eligible: { en: "Eligible Amount", ar: "المبلغ المستحق" },
  copay: { en: "Patient Share", ar: "حصة المريض" },
  /** The part of the patient share that went to the annual deductible (docs/decisions/091). */
  deductible: { en: "Deductible", ar: "مبلغ الاقتطاع" },
  benefit: { en: "Benefit Amount", ar: "مبلغ المنفعة" },
} as const satisfies Record<string, BilingualDisplay>;
export type AdjudicationCategoryCode = keyof typeof ADJUDICATION_CATEGORIES;

/** Adjudication reasons: the HL7 codes plus the ones the platform adds for its own rules. */
export const ADJUDICATION_REASONS = {
  ar001: { en: "Not covered by the plan", ar: "غير مشمول بالتغطية" },
  ar002: { en: "Plan limit reached", ar: "تم بلوغ حد المنفعة" },
  "price-list": { en: "Reduced to the price list", ar: "خُفِّض إلى سعر القائمة" },
  "preauth-required": { en: "Prior authorization required", ar: "يتطلب موافقة مسبقة" },
  "coverage-inactive": { en: "Coverage not in force", ar: "التغطية غير سارية" },
  "quantity-limit": { en: "Reduced to the quantity or days-supply limit", ar: "خُفِّض إلى حد الكمية أو أيام الصرف" },
  "package-included": { en: "Included in the package price", ar: "مشمول في سعر الباقة" },
} as const satisfies Record<string, BilingualDisplay>;
export type AdjudicationReasonCode = keyof typeof ADJUDICATION_REASONS;

export const BENEFIT_TYPES = {
  benefit: { en: "Benefit", ar: "المنفعة" },
  "copay-percent": { en: "Copayment Percent per service", ar: "نسبة التحمل لكل خدمة" },
  deductible: { en: "Deductible", ar: "مبلغ الاقتطاع" },
  /** In {@link PLATFORM_BENEFIT_TYPE_SYSTEM}, not HL7's. */
  "out-of-pocket-maximum": { en: "Out-of-pocket maximum", ar: "الحد الأقصى لما يدفعه المريض" },
} as const satisfies Record<string, BilingualDisplay>;

export const CLAIM_TYPES = {
  institutional: { en: "Institutional", ar: "مؤسسي" },
  professional: { en: "Professional", ar: "مهني" },
  oral: { en: "Oral", ar: "أسنان" },
  pharmacy: { en: "Pharmacy", ar: "صيدلية" },
  vision: { en: "Vision", ar: "بصريات" },
} as const satisfies Record<string, BilingualDisplay>;

export const PROCESS_PRIORITIES = {
  stat: { en: "Immediate", ar: "فوري" },
  normal: { en: "Normal", ar: "عادي" },
  deferred: { en: "Deferred", ar: "مؤجل" },
} as const satisfies Record<string, BilingualDisplay>;

export const PAYMENT_TYPES = {
  complete: { en: "Complete", ar: "كامل" },
  partial: { en: "Partial", ar: "جزئي" },
} as const satisfies Record<string, BilingualDisplay>;

/** Currency of every Money on the platform. */
export const PLATFORM_CURRENCY = "SAR";

/** Media type required in Content-Type and Accept. */
export const FHIR_JSON = "application/fhir+json";

/**
 * Payments (docs/decisions/047): remittances (PaymentReconciliation) and the clinic's payment notices
 * (PaymentNotice). HL7 code systems, as the national exchange's profiles bind them.
 */
export const PAYMENT_SYSTEMS = {
  /** PaymentNotice.paymentStatus: paid (the payee has received it) | cleared (it cleared the bank). */
  paymentStatus: "http://terminology.hl7.org/CodeSystem/paymentstatus",
  /** PaymentReconciliation.detail.type: payment | adjustment | advance. */
  paymentType: "http://terminology.hl7.org/CodeSystem/payment-type",
  /** The payer's payment identifiers (PaymentReconciliation.paymentIdentifier) in the sandbox. */
  sandboxPaymentIdentifier: `${PLATFORM_URI_BASE}/identifier/payment`,
} as const;
export const PAYMENT_NOTICE_STATUS_CODES = ["paid", "cleared"] as const;
export type PaymentNoticeStatusCode = (typeof PAYMENT_NOTICE_STATUS_CODES)[number];

/** The exchange's cancellation reasons (task-reason-code, NPHIES IG ValueSet task-reason-code). */
export const CANCEL_REASONS = ["WI", "NP", "TAS", "SU", "resubmission"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
/** English display of each reason as the exchange names it (the portal's own words are in the catalogues). */
export const CANCEL_REASON_DISPLAY: Readonly<Record<CancelReason, string>> = {
  WI: "Wrong information",
  NP: "Service not performed",
  TAS: "Transaction already submitted",
  SU: "Service unavailable",
  resubmission: "Claim re-submission",
};

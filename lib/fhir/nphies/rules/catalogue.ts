/**
 * Every rule the exchange applies to a request message, with the code it answers. Codes follow
 * the exchange's families — BV (business validation), DT (data type), IC (invalid code) — and are
 * the guide's own where it publishes the constraint (BV-00126, BV-00130, BV-00168, BV-00221,
 * BV-00027, BV-00339, BV-00341, BV-00509, BV-00798, BV-00802, BV-00848). Where the guide publishes no code for a rule we
 * enforce, the code is in the 9xxxx range of its family, which the guide does not use, so an
 * integrator can always tell ours from the exchange's (`igCode: false`).
 */
/**
 * How long a newborn is covered under a parent's policy: the Council of Health Insurance covers a
 * newborn under the mother's policy for up to 30 days from birth (then the child is added to a
 * policy of its own). The newborn rules count the service date's distance from the birth date.
 */
export const NEWBORN_WINDOW_DAYS = 30;

export interface RuleDefinition {
  code: string;
  /** The guide publishes this code for this rule. */
  igCode: boolean;
  severity: "error" | "warning";
  /** What the rule demands, in words (English; the portal translates by code). */
  text: string;
}

export const RULES = {
  // The envelope
  bundleType: { code: "BV-00130", igCode: true, severity: "error", text: "The Bundle's type must be 'message'." },
  bundleId: { code: "BV-00341", igCode: true, severity: "error", text: "Bundle.id must be a GUID." },
  firstEntryHeader: { code: "BV-00126", igCode: true, severity: "error", text: "The first entry of the Bundle must be a MessageHeader." },
  headerId: { code: "BV-00168", igCode: true, severity: "error", text: "MessageHeader.id must be a GUID." },
  focusOne: { code: "BV-00221", igCode: true, severity: "error", text: "MessageHeader.focus must name exactly one main resource." },
  duplicateFullUrl: { code: "BV-90020", igCode: false, severity: "error", text: "Two entries share one fullUrl (R4 bdl-7)." },
  eventUnknown: { code: "IC-90001", igCode: false, severity: "error", text: "The event must be a request event of ksa-message-events." },
  focusType: { code: "BV-90010", igCode: false, severity: "error", text: "The focus is not the resource this event carries." },
  claimUse: { code: "BV-90014", igCode: false, severity: "error", text: "Claim.use does not fit the event (claim-request: claim; priorauth-request: preauthorization)." },
  destination: { code: "BV-90011", igCode: false, severity: "error", text: "The receiver must be the payer (by payer licence), or the exchange for polls and payment notices." },
  senderUnknown: { code: "BV-90012", igCode: false, severity: "error", text: "The sender's provider licence is not known to the exchange." },
  receiverUnknown: { code: "BV-90013", igCode: false, severity: "error", text: "The receiver's payer licence is not known to the exchange." },
  practitionerUnknown: { code: "BV-90022", igCode: false, severity: "error", text: "The practitioner's licence is not known to the exchange." },
  // Every resource
  structure: { code: "DT-90001", igCode: false, severity: "error", text: "The resource is not valid FHIR R4 (wrong type, unknown element or malformed value)." },
  profileMissing: { code: "BV-90002", igCode: false, severity: "error", text: "Every resource must declare its national-exchange profile in meta.profile." },
  profileMismatch: { code: "BV-90003", igCode: false, severity: "error", text: "The declared profile does not fit this resource." },
  required: { code: "BV-90004", igCode: false, severity: "error", text: "An element the profile requires is missing." },
  referenceUnresolved: { code: "BV-90005", igCode: false, severity: "error", text: "A reference does not resolve to an entry of the Bundle (and is not identifier-only)." },
  currency: { code: "BV-90019", igCode: false, severity: "error", text: "Money must be in SAR." },
  // Patient
  patientActive: { code: "BV-00339", igCode: true, severity: "error", text: "Patient.active must be true." },
  patientBirthDate: { code: "BV-00848", igCode: true, severity: "error", text: "Patient.birthDate must lie between 1900-01-01 and today." },
  iqama: { code: "BV-00798", igCode: true, severity: "error", text: "An Iqama number has 10 digits and starts with 2." },
  nationalId: { code: "BV-90006", igCode: false, severity: "error", text: "A national ID has 10 digits and starts with 1." },
  patientIdentifierType: { code: "IC-90002", igCode: false, severity: "error", text: "A patient identifier must be a national ID, Iqama, passport or border number of the exchange's systems." },
  // Claims and prior authorizations
  claimType: { code: "IC-90003", igCode: false, severity: "error", text: "Claim.type must be institutional, professional, oral, pharmacy or vision (claim-type)." },
  claimProfile: { code: "BV-90007", igCode: false, severity: "error", text: "The Claim's profile must match its type and use." },
  claimSubtype: { code: "IC-90004", igCode: false, severity: "error", text: "Claim.subType must be a claim-subtype code this care setting allows." },
  itemCodeSystem: { code: "IC-90005", igCode: false, severity: "error", text: "The item's code must come from a code system this care setting allows." },
  diagnosisSystem: { code: "IC-90006", igCode: false, severity: "error", text: "Diagnoses must be coded in ICD-10-AM." },
  diagnosisType: { code: "IC-90007", igCode: false, severity: "error", text: "Diagnosis.type must be an ex-diagnosistype code." },
  supportingInfoCategory: { code: "IC-90008", igCode: false, severity: "error", text: "supportingInfo.category must come from claim-information-category." },
  supportingInfoRequired: { code: "BV-90008", igCode: false, severity: "error", text: "This care setting requires a supporting-information category that is missing." },
  careTeam: { code: "BV-90009", igCode: false, severity: "error", text: "This care setting requires a care team member with a practitioner and a specialty." },
  encounterRequired: { code: "BV-90015", igCode: false, severity: "error", text: "Inpatient and emergency claims must name their Encounter (extension-encounter)." },
  itemNet: { code: "BV-90016", igCode: false, severity: "error", text: "item.net must equal quantity × unitPrice × factor + tax." },
  total: { code: "BV-90017", igCode: false, severity: "error", text: "Claim.total must equal the sum of item.net." },
  oralTooth: { code: "BV-90018", igCode: false, severity: "warning", text: "Oral items should name the tooth or region (bodySite, fdi-oral-region)." },
  // Inpatient stays (docs/decisions/056, amendment on care settings)
  estimatedStay: { code: "BV-00802", igCode: true, severity: "error", text: "An institutional prior authorization of an inpatient stay (subType ip) must carry the estimated length of stay (supportingInfo estimated-Length-of-Stay)." },
  estimatedStayValue: { code: "BV-90026", igCode: false, severity: "error", text: "The estimated length of stay is a valueQuantity in whole days of at least 1 (http://unitsofmeasure.org, d)." },
  onAdmission: { code: "BV-00027", igCode: true, severity: "error", text: "Each diagnosis of an inpatient institutional claim or prior authorization (subType ip) must say whether it was present on admission (diagnosis.onAdmission)." },
  onAdmissionCode: { code: "IC-90010", igCode: false, severity: "error", text: "diagnosis.onAdmission must be a code of diagnosis-on-admission (y, n, u)." },
  // Newborns and the coverage a request names
  newbornAge: { code: "BV-90023", igCode: false, severity: "error", text: `A newborn (extension-newborn) is covered under a parent's policy for ${NEWBORN_WINDOW_DAYS} days from birth: Patient.birthDate must lie within the ${NEWBORN_WINDOW_DAYS} days before the service date.` },
  newbornBirthWeight: { code: "BV-90024", igCode: false, severity: "error", text: "A newborn's claim or prior authorization (extension-newborn) must carry the birth weight (supportingInfo birth-weight)." },
  birthWeightUnit: { code: "BV-00509", igCode: true, severity: "error", text: "The birth weight must be a valueQuantity in kilograms (http://unitsofmeasure.org, kg)." },
  coverageBeneficiary: { code: "BV-90025", igCode: false, severity: "error", text: "The coverage must be the patient's own (Coverage.beneficiary = the request's patient), unless the request is for a newborn under a parent's coverage (extension-newborn)." },
  // Tasks
  taskFocusIdentifier: { code: "BV-90021", igCode: false, severity: "error", text: "A status check or cancellation names its request by identifier in Task.focus." },
  taskCode: { code: "IC-90009", igCode: false, severity: "error", text: "Task.code must be the task-code of this event (poll, cancel, status)." },
} as const satisfies Record<string, RuleDefinition>;

export type RuleId = keyof typeof RULES;

/** One finding of the checker: which rule, where (FHIRPath from the Bundle), and what exactly. */
export interface Finding {
  rule: RuleId;
  code: string;
  severity: "error" | "warning";
  /** FHIRPath from the message Bundle: `Bundle.entry[2].resource.item[0].productOrService`. */
  expression: string;
  /** The rule's words plus what was found (never a patient's identifier or name). */
  message: string;
}

export function finding(rule: RuleId, expression: string, detail?: string): Finding {
  const definition: RuleDefinition = RULES[rule];
  return {
    rule,
    code: definition.code,
    severity: definition.severity,
    expression,
    message: detail ? `${definition.text} ${detail}` : definition.text,
  };
}

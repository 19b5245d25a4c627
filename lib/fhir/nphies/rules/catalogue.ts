/**
 * Every rule the exchange applies to a request message, with the code it answers. Codes follow
 * the exchange's families — BV (business validation), DT (data type), IC (invalid code) — and are
 * the exchange's own where it publishes the constraint (its web guide and its answers to real
 * requests: `igCode: true`). Where it publishes no code for a rule we enforce, the code is in the
 * 9xxxx range of its family, which the exchange does not use, so an integrator can always tell
 * ours from the exchange's (`igCode: false`). Each rule says where the guide (v2.7, PDF pages)
 * says it and gives one example; sandbox/README.md's table is generated from here
 * (sandbox/rules-table.ts; decision 104).
 */
/**
 * How long a newborn is covered under a parent's policy: the Council of Health Insurance covers a
 * newborn under the mother's policy for up to 30 days from birth (then the child is added to a
 * policy of its own). The newborn rules count the service date's distance from the birth date.
 */
export const NEWBORN_WINDOW_DAYS = 30;

export interface RuleDefinition {
  code: string;
  /** The exchange publishes this code for this rule (its web guide or its answers), not one of our 9xxxx codes. */
  igCode: boolean;
  severity: "error" | "warning";
  /** What the rule demands, in words (English; the portal translates by code). */
  text: string;
  /** Where the guide (v2.7, PDF page numbers) or the exchange says it. */
  guide: string;
  /** One message that breaks it → the element named (sandbox/README.md's table). */
  example: string;
}

const P = "Bundle.entry[1].resource";

export const RULES = {
  // The envelope
  bundleType: { code: "BV-00130", igCode: true, severity: "error", text: "The Bundle's type must be 'message'.", guide: "6.2.11 Message Structure: Bundle (p. 62)", example: "a bare Claim posted → `Bundle`" },
  bundleId: { code: "BV-00341", igCode: true, severity: "error", text: "Bundle.id must be a GUID.", guide: "6.2.11 (p. 62)", example: "`\"id\": \"msg-1\"` → `Bundle.id`" },
  firstEntryHeader: { code: "BV-00126", igCode: true, severity: "error", text: "The first entry of the Bundle must be a MessageHeader.", guide: "6.2.3 Sample Structure of FHIR Bundle (p. 50)", example: "Claim first → `Bundle.entry[0]`" },
  headerId: { code: "BV-00168", igCode: true, severity: "error", text: "MessageHeader.id must be a GUID.", guide: "6.2.12 Header Request (p. 63)", example: "`\"id\": \"header-1\"` → `Bundle.entry[0].resource.id`" },
  focusOne: { code: "BV-00221", igCode: true, severity: "error", text: "MessageHeader.focus must name exactly one main resource.", guide: "6.2.8 Table 12 (p. 58)", example: "two focus references → `Bundle.entry[0].resource.focus`" },
  duplicateFullUrl: { code: "BV-90020", igCode: false, severity: "error", text: "Two entries share one fullUrl (R4 bdl-7).", guide: "FHIR R4 Bundle invariant bdl-7", example: "duplicated fullUrl → `Bundle.entry[3].fullUrl`" },
  eventUnknown: { code: "IC-90001", igCode: false, severity: "error", text: "The event must be a request event of ksa-message-events.", guide: "6.2.7 Table 11 Message Events (p. 57)", example: "`claim-submit` → `Bundle.entry[0].resource.eventCoding`" },
  focusType: { code: "BV-90010", igCode: false, severity: "error", text: "The focus is not the resource this event carries.", guide: "6.2.8 Table 12 (p. 58)", example: "claim-request focusing a Patient → `Bundle.entry[0].resource.focus[0]`" },
  claimUse: { code: "BV-90014", igCode: false, severity: "error", text: "Claim.use does not fit the event (claim-request: claim; priorauth-request: preauthorization; prescriber-request: predetermination).", guide: "6.2.8 Table 12 (p. 58); 7.11 Prescription Verification (p. 113)", example: `priorauth-request with \`use: claim\` → \`${P}.use\`` },
  destination: { code: "BV-90011", igCode: false, severity: "error", text: "The receiver must be the payer (by payer licence), or the exchange for polls and payment notices.", guide: "6.2.12 Header Request (p. 63)", example: "a poll addressed to a payer → `Bundle.entry[0].resource.destination[0].receiver`" },
  senderUnknown: { code: "BV-90012", igCode: false, severity: "error", text: "The sender's provider licence is not known to the exchange.", guide: "6.2.12; note 1.4 (p. 11): licences in the Unified Portal", example: "sender `PR-UNKNOWN` → `…sender.identifier.value`" },
  receiverUnknown: { code: "BV-90013", igCode: false, severity: "error", text: "The receiver's payer licence is not known to the exchange.", guide: "6.2.12; note 1.4 (p. 11)", example: "receiver `9999999999` → `…destination[0].receiver.identifier.value`" },
  practitionerUnknown: { code: "BV-90022", igCode: false, severity: "error", text: "The practitioner's licence is not known to the exchange.", guide: "9.17 Practitioner Profile (p. 128)", example: "`PRAC-99999` → `Bundle.entry[6].resource.identifier[0].value`" },
  // R4 structure, checked before any business rule (decision 104)
  structure: { code: "DT-90001", igCode: false, severity: "error", text: "A value is not of its R4 datatype (a number written as a string, a malformed date, dateTime or decimal, an empty value).", guide: "3.1 FHIR DataTypes, Table 1 (p. 33–37)", example: `\`"valueQuantity": {"value": "7"}\` → \`${P}.supportingInfo[0].valueQuantity.value\`` },
  structureElement: { code: "DT-90002", igCode: false, severity: "error", text: "An element R4 does not define for this resource.", guide: "3.5 Note for Implementers (p. 41): the profiles are FHIR R4", example: `\`"procedureCode": …\` on a Claim → \`${P}.procedureCode\`` },
  structureCardinality: { code: "DT-90003", igCode: false, severity: "error", text: "An element breaks its R4 cardinality (an array where one value goes, one value where an array goes, a required element missing, two choices of one value[x]).", guide: "3.2 Cardinality, Table 2 (p. 38)", example: `\`"patient": [{…}]\` → \`${P}.patient\`` },
  structureReference: { code: "DT-90004", igCode: false, severity: "error", text: "A reference names a resource type the element does not take.", guide: "3.1 Table 1, Reference (p. 36); FHIR R4 Reference targets", example: `\`"prescription": {"reference": "Prescription/1"}\` → \`${P}.prescription.reference\`` },
  // Every resource
  profileMissing: { code: "BV-90002", igCode: false, severity: "error", text: "Every resource must declare its national-exchange profile in meta.profile.", guide: "profile note 3.2 (p. 17): meta fields in all profiles", example: `Claim without \`meta\` → \`${P}.meta.profile\`` },
  profileMismatch: { code: "BV-90003", igCode: false, severity: "error", text: "The declared profile does not fit this resource.", guide: "profile note 3.2 (p. 17)", example: "a Patient declaring `coverage` → `Bundle.entry[2].resource.meta.profile`" },
  profileElement: { code: "BV-90027", igCode: false, severity: "error", text: "An element the exchange's profiles do not define: an extension of the exchange (…/StructureDefinition/extension-*) that is not one of its extensions.", guide: "6.2.6 Table 10 Table of Extensions (p. 52–56)", example: `\`extension-discount\` on a Claim → \`${P}.extension[0].url\`` },
  required: { code: "BV-90004", igCode: false, severity: "error", text: "An element the profile requires is missing.", guide: "9 Data Model, the profiles (p. 117–137); MDS notes 5.2 (p. 25–27)", example: `Claim without \`subType\` → \`${P}.subType\`` },
  referenceUnresolved: { code: "BV-90005", igCode: false, severity: "error", text: "A reference does not resolve to an entry of the Bundle (and is not identifier-only).", guide: "9.20/9.21: all related resources in the same bundle (p. 133–134)", example: `\`Patient/not-in-this-message\` → \`${P}.patient\`` },
  currency: { code: "BV-90019", igCode: false, severity: "error", text: "Money must be in SAR.", guide: "3.1 Table 1, Money (p. 35)", example: `\`"currency": "USD"\` → \`${P}.item[0].unitPrice.currency\`` },
  codingSystemTwice: { code: "IC-90011", igCode: false, severity: "error", text: "One CodeableConcept carries two codings of the same code system.", guide: "3.1 Table 1, CodeableConcept (p. 34); the publisher's error samples", example: `\`productOrService\` with two \`services\` codings → \`${P}.item[0].productOrService.coding[1]\`` },
  codingTwoCodes: { code: "IC-90012", igCode: false, severity: "error", text: "One CodeableConcept carries two codes of the value set bound to it (one code per concept).", guide: "3.1 Table 1, CodeableConcept (p. 34); the publisher's error samples", example: `\`productOrService\` coded in \`services\` and in \`procedures\` → \`${P}.item[0].productOrService.coding[1]\`` },
  codeInactive: { code: "BV-90029", igCode: false, severity: "error", text: "The item's code is not active on its service date (outside the code's activation period).", guide: "3.5 Note for Implementers (p. 45): a code is checked for being active at the time of the service", example: `a code retired on 2025-12-31 served 2026-01-02 → \`${P}.item[0].productOrService\`` },
  // Patient
  patientActive: { code: "BV-00339", igCode: true, severity: "error", text: "Patient.active must be true.", guide: "9.13 Patient Profile (p. 126)", example: "`\"active\": false` → `Bundle.entry[2].resource.active`" },
  patientBirthDate: { code: "BV-00848", igCode: true, severity: "error", text: "Patient.birthDate must lie between 1900-01-01 and today.", guide: "6.3.11 notes to Table 35 (p. 94)", example: "`1850-01-01` → `Bundle.entry[2].resource.birthDate`" },
  iqama: { code: "BV-00798", igCode: true, severity: "error", text: "An Iqama number has 10 digits and starts with 2.", guide: "9.13 Patient Profile (p. 126)", example: "`3456789011` → `Bundle.entry[2].resource.identifier[0].value`" },
  nationalId: { code: "BV-90006", igCode: false, severity: "error", text: "A national ID has 10 digits and starts with 1.", guide: "9.13 Patient Profile (p. 126)", example: "`2456789011` as NI → `…identifier[0].value`" },
  patientIdentifierType: { code: "IC-90002", igCode: false, severity: "error", text: "A patient identifier must be a national ID, Iqama, passport or border number of the exchange's systems.", guide: "9.13 Patient Profile (p. 126)", example: "type `XX` → `…identifier[0].type`" },
  // Claims and prior authorizations
  claimType: { code: "IC-90003", igCode: false, severity: "error", text: "Claim.type must be institutional, professional, oral, pharmacy or vision (claim-type).", guide: "3.5 Note for Implementers (p. 42): the five claim types", example: `\`dental\` → \`${P}.type\`` },
  claimProfile: { code: "BV-90007", igCode: false, severity: "error", text: "The Claim's profile must match its type and use.", guide: "9.3, 9.6, 9.8 (p. 119–123)", example: "an oral claim declaring `vision-claim` → `…meta.profile`" },
  claimSubtype: { code: "IC-90004", igCode: false, severity: "error", text: "Claim.subType must be a claim-subtype code this care setting allows.", guide: "9.19 Encounter Profile, claim type × subtype table (p. 130)", example: `oral with \`ip\` → \`${P}.subType\`` },
  itemCodeSystem: { code: "IC-90005", igCode: false, severity: "error", text: "The item's code must come from a code system this care setting allows.", guide: "6.3.9 Identify Code Lists (p. 80)", example: `oral claim billing \`laboratory\` → \`${P}.item[0].productOrService\`` },
  diagnosisSystem: { code: "IC-90006", igCode: false, severity: "error", text: "Diagnoses must be coded in ICD-10-AM.", guide: "3.5 Note for Implementers (p. 45): ICD-AM codes", example: "ICD-10-CM system → `…diagnosis[0].diagnosisCodeableConcept`" },
  diagnosisType: { code: "IC-90007", igCode: false, severity: "error", text: "Diagnosis.type must be a code of the exchange's diagnosis-type system (http://nphies.sa/terminology/CodeSystem/diagnosis-type).", guide: "the exchange's CodeSystem diagnosis-type; every real claim and authorization codes it there", example: "HL7's `ex-diagnosistype` system → `…diagnosis[0].type[0]`" },
  supportingInfoCategory: { code: "IC-90008", igCode: false, severity: "error", text: "supportingInfo.category must come from claim-information-category.", guide: "6.3.11 Table 35 (p. 91–94)", example: "`notes` → `…supportingInfo[0].category`" },
  supportingInfoRequired: { code: "BV-90008", igCode: false, severity: "error", text: "This care setting requires a supporting-information category that is missing.", guide: "3.5 Note for Implementers (p. 43): days supply; 6.3.11 Table 35 (p. 91–94)", example: `pharmacy without \`days-supply\` → \`${P}.supportingInfo\`` },
  careTeam: { code: "BV-90009", igCode: false, severity: "error", text: "This care setting requires a care team member with a practitioner and a specialty.", guide: "3.5 Note for Implementers (p. 42): the careTeam qualification", example: "no `careTeam.qualification` → `…careTeam[0].qualification`" },
  itemNet: { code: "BV-90016", igCode: false, severity: "error", text: "item.net must equal quantity × unitPrice × factor + tax.", guide: "3.5 Note for Implementers (p. 42): the net of an item", example: "net 100 for 2 × 150 → `…item[0].net`" },
  total: { code: "BV-90017", igCode: false, severity: "error", text: "Claim.total must equal the sum of item.net.", guide: "3.5 Note for Implementers (p. 42)", example: `total 10 → \`${P}.total\`` },
  oralTooth: { code: "BV-90018", igCode: false, severity: "warning", text: "Oral items should name the tooth or region (bodySite, fdi-oral-region).", guide: "6.3.11 Table 35, missing tooth (p. 91); fdi-oral-region", example: "ORL-2003 without `bodySite` → `…item[0].bodySite` (warning)" },
  procedureElement: { code: "BV-90028", igCode: false, severity: "warning", text: "Claim.procedure is not how the exchange bills a procedure: the guide never uses it and no real request carries it; bill procedures as items (productOrService from the procedures code system).", guide: "6.3.9 Identify Code Lists (p. 80); the guide has no Claim.procedure", example: `a CPT code in \`procedure[0]\` → \`${P}.procedure\` (warning)` },
  // Inpatient stays (docs/decisions/056, amendment on care settings)
  estimatedStay: { code: "BV-00802", igCode: true, severity: "error", text: "An institutional prior authorization of an inpatient stay (subType ip) must carry the estimated length of stay (supportingInfo estimated-Length-of-Stay).", guide: "6.3.11 Table 35 (p. 94); MDS note 5.2 (p. 26)", example: `inpatient prior authorization with only the chief complaint → \`${P}.supportingInfo\`` },
  estimatedStayValue: { code: "BV-90026", igCode: false, severity: "error", text: "The estimated length of stay is a valueQuantity in whole days of at least 1 (http://unitsofmeasure.org, d).", guide: "6.3.11 Table 35 (p. 94)", example: `\`{"value": 96, "code": "h"}\` → \`${P}.supportingInfo[1].valueQuantity\`` },
  onAdmission: { code: "BV-00027", igCode: true, severity: "error", text: "Each diagnosis of an inpatient institutional claim or prior authorization (subType ip) must say whether it was present on admission (diagnosis.onAdmission).", guide: "document note 1.3 item 15 (p. 10): Claim.diagnosis.onAdmission", example: `an inpatient prior authorization's diagnosis without it → \`${P}.diagnosis[0].onAdmission\`` },
  onAdmissionCode: { code: "IC-90010", igCode: false, severity: "error", text: "diagnosis.onAdmission must be a code of diagnosis-on-admission (y, n, u).", guide: "document note 1.3 item 15 (p. 10)", example: `HL7's \`ex-diagnosis-on-admission\` → \`${P}.diagnosis[0].onAdmission\`` },
  // Newborns and the coverage a request names
  newbornAge: { code: "BV-90023", igCode: false, severity: "error", text: `A newborn (extension-newborn) is covered under a parent's policy for ${NEWBORN_WINDOW_DAYS} days from birth: Patient.birthDate must lie within the ${NEWBORN_WINDOW_DAYS} days before the service date.`, guide: "6.5 Newborn (p. 96)", example: "newborn born 31 days before the service date → `Bundle.entry[2].resource.birthDate`" },
  newbornBirthWeight: { code: "BV-90024", igCode: false, severity: "error", text: "A newborn's claim or prior authorization (extension-newborn) must carry the birth weight (supportingInfo birth-weight).", guide: "6.5 Newborn (p. 96)", example: `newborn claim with only the chief complaint → \`${P}.supportingInfo\`` },
  birthWeightUnit: { code: "BV-00509", igCode: true, severity: "error", text: "The birth weight must be a valueQuantity in kilograms (http://unitsofmeasure.org, kg).", guide: "6.3.11 Table 35, birth-weight (p. 93)", example: `\`{"value": 3100, "code": "g"}\` → \`${P}.supportingInfo[1].valueQuantity\`` },
  coverageBeneficiary: { code: "BV-90025", igCode: false, severity: "error", text: "The coverage must be the patient's own (Coverage.beneficiary = the request's patient), unless the request is for a newborn under a parent's coverage (extension-newborn).", guide: "6.5 Newborn (p. 96)", example: `a claim naming the mother's coverage without extension-newborn → \`${P}.insurance[0].coverage\`` },
  // Tasks
  taskFocusIdentifier: { code: "BV-90021", igCode: false, severity: "error", text: "A status check or cancellation names its request by identifier in Task.focus.", guide: "9.23 Task Profile, Table 60 (p. 135)", example: `\`focus: Claim/123\` → \`${P}.focus\`` },
  taskCode: { code: "IC-90009", igCode: false, severity: "error", text: "Task.code must be the task-code of this event (poll, cancel, status).", guide: "9.23 Task Profile, Table 60 (p. 135)", example: "status-check with code `poll` → `…code`" },

  // ---- The Minimum Data Set (docs/decisions/103, 104) ----------------------------------------
  encounterRequired: { code: "BV-90015", igCode: false, severity: "error", text: "An institutional, professional or oral claim or prior authorization must name its Encounter (extension-encounter).", guide: "MDS note 5.2 (p. 26): Claim.extension.encounter mandated in institutional, professional and oral", example: `an outpatient professional claim without extension-encounter → \`${P}.extension\`` },
  encounterClassInstitutional: { code: "BV-00741", igCode: true, severity: "error", text: "The Encounter of an institutional claim must be of class IMP (inpatient) or SS (day case).", guide: "9.19 Encounter Profile, claim type × class table (p. 130)", example: "institutional claim with class `AMB` → `Bundle.entry[2].resource.class`" },
  encounterClassProfessional: { code: "BV-00742", igCode: true, severity: "error", text: "The Encounter of a professional claim must be of class AMB, EMER, HH or VR.", guide: "9.19 (p. 130)", example: "professional claim with class `IMP` → `Bundle.entry[2].resource.class`" },
  encounterClassOral: { code: "BV-00743", igCode: true, severity: "error", text: "The Encounter of an oral claim must be of class AMB.", guide: "9.19 (p. 130)", example: "oral claim with class `HH` → `Bundle.entry[2].resource.class`" },
  encounterClassEmergency: { code: "BV-00755", igCode: true, severity: "error", text: "A claim of subType emr must name an Encounter of class EMER.", guide: "9.19 (p. 130–131): emergency scenarios", example: "`emr` claim with class `AMB` → `Bundle.entry[2].resource.class`" },
  serviceEventType: { code: "BV-00736", igCode: true, severity: "error", text: "The Encounter of a professional or oral claim must say whether the visit is the first or a follow-up (extension-serviceEventType, service-event-type).", guide: "MDS note 5.2 (p. 26); 9.19 definitions (p. 132)", example: "an oral claim's Encounter without it → `Bundle.entry[2].resource.extension`" },
  triageDate: { code: "BV-00733", igCode: true, severity: "error", text: "An emergency Encounter (class EMER) must carry the triage date (extension-triageDate).", guide: "9.19 notes (p. 131–132)", example: "EMER encounter without it → `Bundle.entry[2].resource.extension`" },
  triageCategory: { code: "BV-00734", igCode: true, severity: "error", text: "An emergency Encounter (class EMER) must carry the triage category (extension-triageCategory, triage-category).", guide: "9.19 triage categories (p. 131)", example: "EMER encounter without it → `Bundle.entry[2].resource.extension`" },
  arrivalCode: { code: "BV-90030", igCode: false, severity: "error", text: "An emergency Encounter (class EMER) must say how the patient arrived (extension-emergencyArrivalCode).", guide: "MDS note 5.2 (p. 25); 9.19 definitions (p. 131)", example: "EMER encounter without it → `Bundle.entry[2].resource.extension`" },
  emergencyServiceStart: { code: "BV-90031", igCode: false, severity: "error", text: "An emergency Encounter (class EMER) must carry the emergency service start (extension-emergencyServiceStart).", guide: "MDS note 5.2 (p. 26); 9.19 definitions (p. 131)", example: "EMER encounter without it → `Bundle.entry[2].resource.extension`" },
  emergencyDisposition: { code: "BV-90032", igCode: false, severity: "error", text: "An emergency Encounter of a claim whose period has ended must carry the department disposition (extension-emergencyDepartmentDisposition).", guide: "9.19 notes (p. 132)", example: "EMER claim encounter with period.end and no disposition → `Bundle.entry[2].resource.extension`" },
  encounterSeconds: { code: "BV-90033", igCode: false, severity: "error", text: "The triage date, the emergency service start and the Encounter's period are date-times to the second (seconds may be 00).", guide: "9.19 notes (p. 131)", example: "`period.start` `2026-03-01` → `Bundle.entry[2].resource.period.start`" },
  admission: { code: "BV-90034", igCode: false, severity: "error", text: "An inpatient or day-case Encounter (IMP, SS) must carry its admission: hospitalization.admitSource, the admission specialty and the intended length of stay.", guide: "MDS note 5.2 (p. 26–27)", example: "IMP encounter without admitSource → `Bundle.entry[2].resource.hospitalization.admitSource`" },
  discharge: { code: "BV-90035", igCode: false, severity: "error", text: "On a claim of an inpatient or day-case stay (IMP, SS), the period's end, the discharge specialty and the discharge disposition go together: one given, all three are.", guide: "9.19 notes (p. 132–133)", example: "period.end without a discharge disposition → `Bundle.entry[2].resource.hospitalization.dischargeDisposition`" },
  dischargeDispositionCode: { code: "IC-90013", igCode: false, severity: "error", text: "hospitalization.dischargeDisposition must be a code of the exchange's discharge-disposition value set.", guide: "MDS note 5.2 (p. 26): value set changed to the exchange's", example: "HL7's `discharge-disposition` system → `Bundle.entry[2].resource.hospitalization.dischargeDisposition`" },
  causeOfDeath: { code: "BV-90036", igCode: false, severity: "error", text: "When the patient died (discharge or department disposition of death), the Encounter carries the cause of death (extension-causeOfDeath).", guide: "MDS note 5.2 (p. 26); 9.19 definitions (p. 132)", example: "disposition `exp` without it → `Bundle.entry[2].resource.extension`" },
  birthBeforeEncounter: { code: "BV-90045", igCode: false, severity: "error", text: "Patient.birthDate must be on or before the Encounter's period.start.", guide: "6.3.11 notes to Table 35, admission weight (p. 94)", example: "birth 2026-03-02, encounter from 2026-03-01 → `Bundle.entry[3].resource.birthDate`" },
  maternity: { code: "BV-90037", igCode: false, severity: "error", text: "Every item of an institutional, professional or pharmacy claim or prior authorization says whether it is maternity care (extension-maternity, a boolean).", guide: "MDS note 5.2 (p. 26): Claim.item.extension.maternity mandatory", example: `a professional item without it → \`${P}.item[0].extension\`` },
  conditionOnset: { code: "BV-90038", igCode: false, severity: "error", text: "Every diagnosis of an institutional claim carries its condition onset (extension-condition-onset).", guide: "MDS note 5.2 (p. 26): Claim.diagnosis.extension.conditionOnset mandatory in the institutional claim", example: `an institutional claim's diagnosis without it → \`${P}.diagnosis[0].extension\`` },
  chiefComplaintInstitutional: { code: "BV-00770", igCode: true, severity: "error", text: "An institutional claim or prior authorization must carry the chief complaint (supportingInfo chief-complaint).", guide: "6.3.11 Table 35 (p. 92); document note 2.7 (p. 16): chief complaint", example: `institutional claim without it → \`${P}.supportingInfo\`` },
  chiefComplaintProfessional: { code: "BV-00779", igCode: true, severity: "error", text: "A professional claim or prior authorization must carry the chief complaint (supportingInfo chief-complaint).", guide: "6.3.11 Table 35 (p. 92)", example: `professional claim without it → \`${P}.supportingInfo\`` },
  investigationResult: { code: "BV-00752", igCode: true, severity: "error", text: "A claim or prior authorization must carry the investigation result (supportingInfo investigation-result, a code of investigation-result).", guide: "MDS note 5.2 (p. 26); 6.3.11 Table 35 (p. 93)", example: `a claim without it → \`${P}.supportingInfo\`` },
  treatmentPlan: { code: "BV-00803", igCode: true, severity: "error", text: "A claim or prior authorization must carry the treatment plan (supportingInfo treatment-plan, valueString).", guide: "MDS note 5.2 (p. 26); 6.3.11 Table 35 (p. 93)", example: `a claim without it → \`${P}.supportingInfo\`` },
  patientHistory: { code: "BV-00804", igCode: true, severity: "error", text: "A claim or prior authorization must carry the patient's past medical, surgical and medication history (supportingInfo patient-history, valueString).", guide: "MDS note 5.2 (p. 25); 6.3.11 Table 35 (p. 93)", example: `a claim without it → \`${P}.supportingInfo\`` },
  physicalExamination: { code: "BV-00805", igCode: true, severity: "error", text: "A claim or prior authorization must carry the physical examination (supportingInfo physical-examination, valueString).", guide: "MDS note 5.2 (p. 26); 6.3.11 Table 35 (p. 93)", example: `a claim without it → \`${P}.supportingInfo\`` },
  historyOfPresentIllness: { code: "BV-00806", igCode: true, severity: "error", text: "A claim or prior authorization must carry the history of present illness (supportingInfo history-of-present-illness, valueString).", guide: "MDS note 5.2 (p. 26); 6.3.11 Table 35 (p. 93)", example: `a claim without it → \`${P}.supportingInfo\`` },
  clinicalNoteValue: { code: "BV-90049", igCode: false, severity: "error", text: "A clinical note (treatment plan, patient history, physical examination, history of present illness) is a non-empty valueString.", guide: "6.3.11 Table 35 (p. 93)", example: `treatment-plan with \`valueQuantity\` → \`${P}.supportingInfo[3].valueString\`` },
  investigationAttachment: { code: "BV-90039", igCode: false, severity: "error", text: "An investigation result coded with a result-attached code carries the attachment (valueAttachment); INP, NRI and other need none.", guide: "6.3.11 notes to Table 35 (p. 94)", example: `investigation-result \`IRA\` without valueAttachment → \`${P}.supportingInfo[2].valueAttachment\`` },
  investigationOther: { code: "BV-90040", igCode: false, severity: "error", text: "An investigation result coded \"other\" carries its text (supportingInfo.code.text).", guide: "6.3.11 notes to Table 35 (p. 94)", example: `investigation-result \`other\` without text → \`${P}.supportingInfo[2].code.text\`` },
  vitalSign: { code: "BV-90041", igCode: false, severity: "error", text: "A vital sign is either a valueQuantity in its unit (http://unitsofmeasure.org: kg, cm, mm[Hg], Cel, /min, %) or a permissible absence reason (supportingInfo.reason from its absence value set) — one of the two.", guide: "6.3.11 Table 35 and its notes (p. 92–94)", example: `\`vital-sign-weight\` \`{"value": 70, "code": "lb"}\` → \`${P}.supportingInfo[4].valueQuantity\`` },
  morphology: { code: "BV-90042", igCode: false, severity: "error", text: "A principal or secondary diagnosis on the morphology diagnosis list requires supportingInfo morphology (a code of morphology-code).", guide: "6.3.11 notes to Table 35 (p. 94)", example: `diagnosis C50.9 without morphology → \`${P}.supportingInfo\`` },
  admissionWeight: { code: "BV-90043", igCode: false, severity: "error", text: "An inpatient stay (institutional, Encounter IMP) of a patient under 365 days old at the encounter's start carries the admission weight (supportingInfo admission-weight, kg).", guide: "6.3.11 notes to Table 35 (p. 94)", example: `inpatient claim of a 40-day-old without it → \`${P}.supportingInfo\`` },
  admissionWeightOnlyInpatient: { code: "BV-90044", igCode: false, severity: "error", text: "The admission weight is only given on an institutional claim or prior authorization of an inpatient stay (Encounter IMP), in kilograms.", guide: "6.3.11 notes to Table 35 (p. 94)", example: `admission-weight on a professional claim → \`${P}.supportingInfo[5]\`` },
  accidentWork: { code: "BV-90046", igCode: false, severity: "error", text: "A diagnosis on the work-related diagnosis list requires Claim.accident of type WPA, and an accident of type WPA requires such a diagnosis.", guide: "6.3.12 Accident, validation rules (p. 95)", example: `Y96 diagnosis without an accident → \`${P}.accident\`` },
  accidentRoad: { code: "BV-90047", igCode: false, severity: "error", text: "A diagnosis on the road-traffic (RTA) diagnosis list requires Claim.accident of type MVA, and an accident of type MVA requires such a diagnosis.", guide: "6.3.12 Accident, validation rules (p. 95)", example: `accident MVA with only J06.9 → \`${P}.accident.type\`` },
  hba1c: { code: "BV-90048", igCode: false, severity: "error", text: "An item billing HbA1c (73050-18-50 or 73050-18-60) requires supportingInfo lab-test with a valueQuantity between 3 and 15 in % (http://unitsofmeasure.org).", guide: "3.5 Note for Implementers (p. 45): HBA1C measurement codes", example: `HbA1c item without lab-test → \`${P}.supportingInfo\`` },
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

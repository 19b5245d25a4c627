/**
 * Public face of lib/fhir: resource schemas, code systems, the platform error table, money helpers
 * and the national-ID validator. Shared by the portal and the platform sandbox; import from
 * "lib/fhir" (or "@/lib/fhir"), never from the files behind it.
 */
export * from "./systems";
export * from "./errors";
export * from "./national-id";
export * from "./money";
export * from "./references";
export * from "./schemas";
export * from "./builders/eligibility";
export * from "./read";
export * from "./terminology";
export * from "./builders/claim";
export * from "./builders/prescription";
export * from "./outcome";
export * from "./messages";
export * from "./builders/communication";
export * from "./builders/payment-notice";
export * from "./platform-texts";
export * from "./builders/status-check";
/** The national exchange's rule module (profiles, extensions, terminology, events, checker): docs/decisions/056. */
export * as nphies from "./nphies";
export * from "./price-list";
export * from "./exclusions";
/** The demo codes' benefit categories of every system, shared with the sandbox (docs/decisions/091). */
export * from "./benefit-categories";
/** The patient-share arithmetic of the portal and the sandbox (docs/decisions/091). */
export * from "./patient-share";
/** The size limits of a claim and of any JSON body, one place for the APIs, the forms and the sandbox (docs/decisions/093). */
export { CLAIM_LIMITS, CLAIM_LIMIT_WORDS, FORM_CLAIM_LIMITS, bodyLimitProblem, claimCountProblem, type ClaimLimitName, type LimitProblem } from "./nphies/limits";

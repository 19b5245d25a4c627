/**
 * The tolerant, lossless readers of platform answers (docs/decisions/028).
 * Each takes `unknown` JSON, checks it against FHIR R4 and returns `{ view, raw }`: `raw` is the
 * resource exactly as received (store it), `view` what the portal shows and stores beside it.
 * Anything that is not valid R4 throws one FhirReadError naming the path.
 */
export { FhirReadError, type Read } from "./errors";
export { entryResourceTexts } from "./json-text";
export { readClaimResponse, isFhirReadError, DECISIONS } from "./claim-response";
export type { ClaimResponseView, TransferAuthorizationView, ClaimResponseLineView, ClaimResponseErrorView, AdjudicationView, AmountCategory, Decision, ProcessNoteView } from "./claim-response";
export { readCoverageEligibilityResponse } from "./eligibility-response";
export { servicesNeedingAuthorization } from "./auth-requirements";
export type { AnnualAmountView, DiscoveredCoverageView, EligibilityReadOptions, BenefitsView, BenefitCategoryView, BenefitView, BenefitValueView, InsuranceView, MinorMoney, EligibilityErrorView } from "./eligibility-response";
export { readOperationOutcome } from "./operation-outcome";
export type { OperationOutcomeView, OutcomeIssueView } from "./operation-outcome";
export { readBundle, bundleResources, readResource, isResourceOf } from "./bundle";
export type { BundleView, BundleEntryView } from "./bundle";
export { readReference, readIdentifier, referenceId, describeReference } from "./reference";
export type { ReferenceView, ReferenceKind, IdentifierView } from "./reference";
export { collectExtensions, extensionCode } from "./extensions";
export type { ExtensionView } from "./extensions";
export type { CodedView, MoneyView, PeriodView } from "./values";
export { checkStructure } from "./structure";
export { readMessage, answersRequest, messageErrorsOf } from "./message";
export { readCommunicationRequest } from "./communication-request";
export { readPaymentReconciliation } from "./payment-reconciliation";
export type { PaymentReconciliationView, RemittanceDetailKind, RemittanceDetailView } from "./payment-reconciliation";
export type { CommunicationRequestView } from "./communication-request";
export type { MessageView, MessageHeaderView, MessageErrorView, MessagePart } from "./message";

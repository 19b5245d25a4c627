/**
 * Message assembly (docs/decisions/074): from what the portal knows of a submission, the complete,
 * profiled request message the national exchange takes. Uses the rule module's constants only.
 */
export * from "./facts";
export { assembleClaim } from "./claim";
export { assembleEligibility } from "./eligibility";
export { coverageResource, encounterResource, insurerResource, locationResource, patientResource, practitionerResource, providerResource } from "./resources";
export { assembleMessage, partyResources, type AssembleInput } from "./message";
export { DEMO_BASE, DEMO_PARTIES, demoClaim, demoMessages, type DemoMessage } from "./demo";
export { exampleMessageFiles } from "./example-files";

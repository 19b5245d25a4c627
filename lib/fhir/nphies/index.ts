/**
 * The national exchange (NPHIES) in one module: its canonical URLs, profiles, extensions,
 * terminology, message events and the rules it applies to a request message. Two users: the
 * portal's message assembly (strict: what it sends passes `checkMessage`) and the sandbox's
 * validation (it refuses what `checkMessage` finds, with the same codes and expressions).
 * Reached through `lib/fhir`'s entry (`nphies.*`); docs/decisions/056.
 */
export * from "./canonical";
export * from "./profiles";
export * from "./extensions";
export * from "./terminology";
export * from "./events";
export * from "./references";
export * from "./appeals";
export * from "./prescriptions";
export { NEWBORN_WINDOW_DAYS, RULES, finding, type Finding, type RuleDefinition, type RuleId } from "./rules/catalogue";
export { REQUIRED_BY_PROFILE, CARE_TEAM_PATHS, claimRequiredPaths, type RequiredPaths } from "./rules/required";
export { missingPaths } from "./rules/paths";
export { checkMessage, isNewbornRequest, offlineFindings, transferFindings, PRESCRIBER_PROFILE, type CheckContext, type MessageCheck } from "./rules/check";
/** The Minimum Data Set's extensions and code systems (decision 103), for the sandbox's corpus. */
export { MDS_EXTENSIONS, MDS_SYSTEMS } from "./mds";
/** Message assembly: complete, profiled request messages from what the portal knows (docs/decisions/074). */
export * from "./assemble";

import { StructureError, checkStructure, referenceTargets, type StructureFault } from "../../read/structure";
import { FhirReadError } from "../../read/errors";
import { NPHIES_STRUCTURE_BASE, profileNameOf } from "../canonical";
import { EXTENSIONS } from "../extensions";
import { MDS_EXTENSIONS } from "../mds";
import { REQUEST_EVENTS, isRequestEvent, type RequestEvent } from "../events";
import { PROFILE_NAMES, claimProfileName, isClaimType, profileNamesFor, type ClaimType, type ClaimUse } from "../profiles";
import { indexMessage, referencesIn, resolveReference, type MessageEntry, type MessageIndex } from "../references";
import {
  DIAGNOSIS_ON_ADMISSION_CODES,
  DIAGNOSIS_SYSTEMS,
  DIAGNOSIS_TYPES,
  ITEM_SYSTEMS_BY_CLAIM_TYPE,
  LICENSES,
  PATIENT_DOCUMENTS,
  SUBTYPES_BY_CLAIM_TYPE,
  SUPPORTING_INFO_BY_SETTING,
  SUPPORTING_INFO_CATEGORIES,
  SYSTEMS,
  TASK_CODES,
  VISIT_REASONS,
  patientDocumentOfType,
  requiredSupportingInfo,
  requiresOnAdmission,
} from "../terminology";
import { NEWBORN_WINDOW_DAYS, finding, type Finding, type RuleId } from "./catalogue";
import { checkMinimumDataSet } from "./minimum-data-set";
import { missingPaths } from "./paths";
import { CARE_TEAM_PATHS, REQUIRED_BY_PROFILE, claimRequiredPaths } from "./required";

/**
 * The exchange's rules applied to one request message: every finding, not just the first, each
 * with its code and the FHIRPath of the element. Used by the sandbox to refuse what the exchange
 * refuses and by the portal's tests to prove that what it sends passes
 * (docs/decisions/056-one-rule-module-for-the-national-exchange.md).
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const codings = (concept: unknown): Json[] => (isObject(concept) ? list(concept.coding) : []);
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CheckContext {
  /** Whether the exchange knows this provider licence (sender). Unchecked when absent. */
  isKnownProvider?: (license: string) => boolean;
  /** Whether the exchange knows this payer licence (receiver). Unchecked when absent. */
  isKnownPayer?: (license: string) => boolean;
  /** Whether the exchange knows this practitioner licence (Practitioner, care team). Unchecked when absent. */
  isKnownPractitioner?: (license: string) => boolean;
  /** "Today" for date rules (tests pin it). */
  today?: Date;
  /**
   * The activation period of a code (its catalogue entry: first and last day it may be billed,
   * YYYY-MM-DD, either open); undefined when the code is unknown or has none. Unchecked when absent.
   */
  codeActivation?: (system: string, code: string) => { start?: string; end?: string } | undefined;
}

export interface MessageCheck {
  /**
   * False when the message cannot be answered with a response message at all (not a Bundle, no
   * MessageHeader first, no event): the exchange answers those with an OperationOutcome.
   */
  readable: boolean;
  event?: string;
  findings: Finding[];
  /** The findings of severity error (what makes the exchange refuse the message). */
  errors: Finding[];
}

export function checkMessage(bundle: unknown, context: CheckContext = {}): MessageCheck {
  const findings: Finding[] = [];
  const readable = isObject(bundle) && bundle.resourceType === "Bundle" && isObject(list(bundle.entry)[0]?.resource) && (list(bundle.entry)[0]!.resource as Json).resourceType === "MessageHeader";
  const event = readable ? eventOf(bundle as Json) : undefined;
  // R4 first, as the exchange's validator does (decision 104): a message that is not valid R4 is
  // refused for that alone, each fault named, before any business rule reads it.
  if (isObject(bundle) && bundle.resourceType === "Bundle") checkR4(bundle, "Bundle", findings);
  if (findings.length === 0) checkBundle(bundle, "Bundle", context, findings);
  return { readable: readable && event !== undefined, ...(event ? { event } : {}), findings, errors: findings.filter((f) => f.severity === "error") };
}

const STRUCTURE_RULES: Readonly<Record<StructureFault, RuleId>> = {
  datatype: "structure",
  element: "structureElement",
  cardinality: "structureCardinality",
  reference: "structureReference",
};

/** One structure check, strict; its fault (if any) as a finding at `at` (the resource's FHIRPath). */
function strictStructure(resource: Json, at: string, out: Finding[]): void {
  try {
    checkStructure(resource, typeof resource.resourceType === "string" ? resource.resourceType : undefined, { strict: true });
  } catch (error) {
    if (!(error instanceof FhirReadError)) throw error;
    const rule = error instanceof StructureError ? STRUCTURE_RULES[error.fault] : "structure";
    out.push(finding(rule, `${at}${error.path.replace(/^[A-Za-z]+/, "")}`, `(${error.reason})`));
  }
}

/** The strict R4 pass over a message: the Bundle's own elements, then every entry's resource (inner messages too). */
function checkR4(bundle: Json, at: string, out: Finding[]): void {
  const entries = Array.isArray(bundle.entry) ? bundle.entry : undefined;
  const shell = entries ? { ...bundle, entry: entries.map((e) => (isObject(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== "resource")) : e)) } : bundle;
  strictStructure(shell, at, out);
  (entries ?? []).forEach((e, i) => {
    if (!isObject(e) || !isObject(e.resource)) return;
    const where = `${at}.entry[${i}].resource`;
    if (e.resource.resourceType === "Bundle") checkR4(e.resource, where, out);
    else strictStructure(e.resource, where, out);
  });
}

function eventOf(bundle: Json): string | undefined {
  const header = list(bundle.entry)[0]?.resource as Json | undefined;
  const code = isObject(header?.eventCoding) ? header.eventCoding.code : undefined;
  return typeof code === "string" && code ? code : undefined;
}

function checkBundle(bundle: unknown, at: string, context: CheckContext, out: Finding[]): void {
  if (!isObject(bundle) || bundle.resourceType !== "Bundle") {
    out.push(finding("bundleType", at, "The message is not a Bundle."));
    return;
  }
  if (bundle.type !== "message") out.push(finding("bundleType", `${at}.type`));
  if (typeof bundle.id !== "string" || !GUID.test(bundle.id)) out.push(finding("bundleId", `${at}.id`));
  if (!bundle.timestamp) out.push(finding("required", `${at}.timestamp`));
  checkDeclaredProfile(bundle, at, out);
  const index = indexMessage(bundle);
  const first = index.entries[0]?.resource;
  if (!first || first.resourceType !== "MessageHeader") {
    out.push(finding("firstEntryHeader", `${at}.entry[0]`));
    return;
  }
  const seen = new Set<string>();
  for (const entry of index.entries) {
    const where = `${at}.entry[${entry.index}]`;
    if (!entry.fullUrl) out.push(finding("required", `${where}.fullUrl`));
    else if (seen.has(entry.fullUrl)) out.push(finding("duplicateFullUrl", `${where}.fullUrl`));
    else seen.add(entry.fullUrl);
    if (!entry.resource) out.push(finding("required", `${where}.resource`));
  }
  const header = first;
  const headerAt = `${at}.entry[0].resource`;
  if (typeof header.id !== "string" || !GUID.test(header.id)) out.push(finding("headerId", `${headerAt}.id`));
  const eventCode = isObject(header.eventCoding) ? header.eventCoding.code : undefined;
  const eventSystem = isObject(header.eventCoding) ? header.eventCoding.system : undefined;
  const event: RequestEvent | undefined = isRequestEvent(eventCode) && eventSystem === SYSTEMS.messageEvents ? eventCode : undefined;
  if (!event) out.push(finding("eventUnknown", `${headerAt}.eventCoding`, typeof eventCode === "string" ? `Found "${eventCode}".` : undefined));

  // The focus: exactly one entry of the event's resource type.
  const focus = list(header.focus);
  let focusEntry: MessageEntry | undefined;
  if (event === "batch-request") {
    // A batch's focus names each of its claim-request messages (at least one), every one an entry.
    if (focus.length === 0) out.push(finding("focusOne", `${headerAt}.focus`, "A batch-request names each of its messages."));
    focus.forEach((f, i) => {
      const resolution = resolveReference(index, f, index.entries[0]);
      if (resolution.kind !== "entry") out.push(finding("referenceUnresolved", `${headerAt}.focus[${i}]`));
      else if (resolution.entry.resource?.resourceType !== "Bundle") out.push(finding("focusType", `${headerAt}.focus[${i}]`, "batch-request carries claim-request message Bundles."));
    });
  } else if (focus.length !== 1) {
    out.push(finding("focusOne", `${headerAt}.focus`, `Found ${focus.length}.`));
  } else {
    const resolution = resolveReference(index, focus[0], index.entries[0]);
    if (resolution.kind !== "entry") out.push(finding("referenceUnresolved", `${headerAt}.focus[0]`, resolution.kind === "unresolved" ? `(${resolution.reason})` : undefined));
    else focusEntry = resolution.entry;
  }
  if (event && focusEntry?.resource) {
    const rule = REQUEST_EVENTS[event];
    if (focusEntry.resource.resourceType !== rule.focusType) {
      out.push(finding("focusType", `${headerAt}.focus[0]`, `${event} carries a ${rule.focusType}, not a ${String(focusEntry.resource.resourceType)}.`));
    } else if ("claimUse" in rule && focusEntry.resource.use !== (event === "prescriber-request" ? "predetermination" : rule.claimUse) && !(event === "prescriber-request" && focusEntry.resource.use === rule.claimUse)) {
      out.push(finding("claimUse", `${at}.entry[${focusEntry.index}].resource.use`));
    }
  }
  if (event) checkParties(header, headerAt, REQUEST_EVENTS[event].destination, context, out);

  for (const entry of index.entries) {
    if (!entry.resource) continue;
    const where = `${at}.entry[${entry.index}].resource`;
    if (entry.resource.resourceType === "Bundle") {
      // A batch-request carries whole claim-request messages as its entries.
      checkBundle(entry.resource, where, context, out);
      continue;
    }
    checkResource(entry, where, index, event, context, out);
  }
}

function checkParties(header: Json, at: string, destination: "payer" | "exchange", context: CheckContext, out: Finding[]): void {
  const sender = isObject(header.sender) && isObject(header.sender.identifier) ? header.sender.identifier : undefined;
  if (!sender || sender.system !== LICENSES.provider || typeof sender.value !== "string") {
    out.push(finding("required", `${at}.sender.identifier`, "The sender is the provider, by provider licence."));
  } else if (context.isKnownProvider && !context.isKnownProvider(sender.value)) {
    out.push(finding("senderUnknown", `${at}.sender.identifier.value`));
  }
  const receiverRef = list(header.destination)[0]?.receiver;
  const receiver = isObject(receiverRef) && isObject(receiverRef.identifier) ? receiverRef.identifier : undefined;
  const expected = destination === "payer" ? LICENSES.payer : LICENSES.nphies;
  if (!receiver || receiver.system !== expected || typeof receiver.value !== "string") {
    out.push(finding("destination", `${at}.destination[0].receiver`));
  } else if (destination === "payer" && context.isKnownPayer && !context.isKnownPayer(receiver.value)) {
    out.push(finding("receiverUnknown", `${at}.destination[0].receiver.identifier.value`));
  }
}

/** The exchange profile names a resource declares (other profiles are ignored). */
function declaredProfiles(resource: Json): string[] {
  const meta = isObject(resource.meta) ? resource.meta : undefined;
  const profiles = Array.isArray(meta?.profile) ? meta.profile : [];
  return profiles.flatMap((p) => (typeof p === "string" ? [profileNameOf(p)].filter((n): n is string => n !== undefined) : []));
}

/** Checks that a resource declares one of its type's profiles; returns the profile name it declares. */
function checkDeclaredProfile(resource: Json, at: string, out: Finding[]): string | undefined {
  const declared = declaredProfiles(resource);
  if (declared.length === 0) {
    out.push(finding("profileMissing", `${at}.meta.profile`));
    return undefined;
  }
  const allowed = [...profileNamesFor(String(resource.resourceType)), ...(resource.resourceType === "Claim" ? [PRESCRIBER_PROFILE] : [])];
  const fitting = declared.find((name) => allowed.includes(name));
  if (!fitting) {
    out.push(finding("profileMismatch", `${at}.meta.profile`, `A ${String(resource.resourceType)} may declare ${allowed.join(", ") || "no exchange profile"}.`));
    return undefined;
  }
  return fitting;
}

/** The profile a resource should be checked against when it declares none (so the rest is still checked). */
function inferredProfile(resource: Json): string | undefined {
  const type = String(resource.resourceType);
  if (type === "Organization") {
    const systems = list(resource.identifier).map((i) => i.system);
    if (systems.includes(LICENSES.payer)) return PROFILE_NAMES.insurerOrganization;
    if (systems.includes(LICENSES.provider)) return PROFILE_NAMES.providerOrganization;
    return PROFILE_NAMES.policyholderOrganization;
  }
  if (type === "Claim") {
    const claimType = codings(resource.type)[0]?.code;
    const use = resource.use === "preauthorization" ? "preauthorization" : "claim";
    return isClaimType(claimType) ? claimProfileName(claimType, use) : undefined;
  }
  const names = profileNamesFor(type);
  return names.length === 1 ? names[0] : undefined;
}

function checkResource(entry: MessageEntry, at: string, index: MessageIndex, event: RequestEvent | undefined, context: CheckContext, out: Finding[]): void {
  const resource = entry.resource!;
  const profile = checkDeclaredProfile(resource, at, out) ?? inferredProfile(resource);

  for (const ref of referencesIn(resource)) {
    const resolution = resolveReference(index, ref.value, entry);
    if (resolution.kind === "unresolved") out.push(finding("referenceUnresolved", `${at}.${ref.path}`, `(${resolution.reason})`));
    // A reference that resolves names an entry of a type the element takes (R4's targets).
    if (resolution.kind === "entry" && typeof resource.resourceType === "string") {
      const targets = referenceTargets(resource.resourceType, ref.path);
      const found = resolution.entry.resource?.resourceType;
      if (targets && typeof found === "string" && !targets.includes(found)) out.push(finding("structureReference", `${at}.${ref.path}`, `It names a ${found}; the element takes ${targets.join(" or ")}.`));
    }
  }
  checkCurrency(resource, at, out);
  checkCodings(resource, at, out);
  checkExchangeExtensions(resource, at, out);

  const type = resource.resourceType;
  if (type === "Claim") checkClaim(entry, at, index, event, context, out);
  else if (profile) requireAll(resource, at, REQUIRED_BY_PROFILE[profile] ?? [], out);
  if (type === "Patient") checkPatient(resource, at, context, out);
  if (type === "Practitioner") checkPractitionerLicence(list(resource.identifier), `${at}.identifier`, context, out);
  if (type === "Claim") {
    // A care team member named by licence only (identifier-only reference) is checked the same way.
    list(resource.careTeam).forEach((member, i) => {
      const provider = isObject(member.provider) ? member.provider : undefined;
      if (provider && !provider.reference && isObject(provider.identifier)) checkPractitionerLicence([provider.identifier], `${at}.careTeam[${i}].provider.identifier`, context, out, true);
    });
  }
  if (type === "Task" && event) checkTask(resource, at, event, out);
  if (type === "Communication" && event === "communication") checkCommunication(resource, at, out);
  if (type === "Claim" || type === "CoverageEligibilityRequest") checkPatientAndCoverage(entry, at, index, out);
  if (type === "CoverageEligibilityRequest") checkEligibilityPurpose(resource, at, out);
  if (type === "Claim" || type === "CoverageEligibilityRequest") checkTransfer(resource, at, out);
  if (type === "Claim" || type === "CoverageEligibilityRequest") checkOffline(resource, at, out);
}

// ---- Discovery and transfer of care ------------------------------------------------------------

/** Table 36: validation and benefits name a coverage or ask for discovery; a discovery names none. */
function checkEligibilityPurpose(request: Json, at: string, out: Finding[]): void {
  const purposes = Array.isArray(request.purpose) ? request.purpose : [];
  const discovery = purposes.includes("discovery");
  const insurance = list(request.insurance);
  if (discovery) {
    insurance.forEach((ins, i) => {
      if (ins.coverage !== undefined) out.push(finding("discoveryAlone", `${at}.insurance[${i}]`));
    });
    return;
  }
  if (insurance.length === 0) out.push(finding("eligibilityCoverage", `${at}.insurance`));
  else insurance.forEach((ins, i) => {
    if (!isObject(ins.coverage)) out.push(finding("eligibilityCoverage", `${at}.insurance[${i}].coverage`));
  });
}

/**
 * 7.3 (Table 37): extension-transfer is a boolean; a referral's prior authorization names the
 * services it transfers; a claim or authorization whose reason for visit is referral names the
 * referring provider, and a referral claim the transfer authorization and its date (step 4).
 */
function checkTransfer(resource: Json, at: string, out: Finding[]): void {
  list(resource.extension).forEach((ext, i) => {
    if (ext.url === EXTENSIONS.transfer && typeof ext.valueBoolean !== "boolean") out.push(finding("transferValue", `${at}.extension[${i}]`));
  });
  if (resource.resourceType !== "Claim") return;
  const transfer = list(resource.extension).some((e) => e.url === EXTENSIONS.transfer && e.valueBoolean === true);
  if (transfer && resource.use === "preauthorization" && list(resource.item).length === 0) out.push(finding("transferPreauthorization", `${at}.item`));
  let referral = false;
  list(resource.supportingInfo).forEach((info, i) => {
    if (!codings(info.category).some((c) => c.system === SYSTEMS.claimInformationCategory && c.code === "reason-for-visit")) return;
    const code = codings(info.code).find((c) => c.system === SYSTEMS.visitReason);
    if (!code || !(VISIT_REASONS as readonly unknown[]).includes(code.code)) out.push(finding("visitReasonCode", `${at}.supportingInfo[${i}].code`));
    if (code?.code === "referral") referral = true;
  });
  if (!referral) return;
  const display = isObject(resource.referral) ? resource.referral.display : undefined;
  if (typeof display !== "string" || display.trim() === "") out.push(finding("referralProvider", `${at}.referral`));
  if (resource.use === "claim") {
    const refs = list(resource.insurance).flatMap((ins) => (Array.isArray(ins.preAuthRef) ? ins.preAuthRef : []));
    if (refs.length === 0) out.push(finding("referralAuthorization", `${at}.insurance[0].preAuthRef`));
    else if (!list(resource.extension).some((e) => e.url === EXTENSIONS.authorizationOfflineDate)) out.push(finding("referralAuthorization", `${at}.extension`, "The authorization's date (extension-authorization-offline-date) is missing."));
  }
}

// ---- Offline approvals ---------------------------------------------------------------------------

const OFFLINE_URLS = [EXTENSIONS.eligibilityOfflineReference, EXTENSIONS.eligibilityOfflineDate, EXTENSIONS.authorizationOfflineDate] as const;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * The offline eligibility and authorization extensions (guide Table 10, p. 53; 7.3 step 4): on a
 * Claim only, each of its type (reference a string, dates a dateTime), the eligibility's reference
 * and date together, an offline authorization with the reference the insurer gave (preAuthRef),
 * and no offline date after the request was created.
 */
/** The offline extensions' findings on one request resource (`at`: its FHIRPath), for callers that check a bare Claim (the machine APIs). */
/** The transfer-of-care rules (BV-90073 – 90076, IC-90071) on one Claim, for the machine APIs' 422 before anything is stored (decision 120). */
export function transferFindings(resource: Record<string, unknown>, at: string): Finding[] {
  const out: Finding[] = [];
  checkTransfer(resource as Json, at, out);
  return out;
}

export function offlineFindings(resource: Record<string, unknown>, at: string): Finding[] {
  const out: Finding[] = [];
  checkOffline(resource as Json, at, out);
  return out;
}

function checkOffline(resource: Json, at: string, out: Finding[]): void {
  const found = list(resource.extension).map((e, i) => ({ e, i })).filter(({ e }) => (OFFLINE_URLS as readonly unknown[]).includes(e.url));
  if (found.length === 0) return;
  if (resource.resourceType !== "Claim") {
    for (const { i } of found) out.push(finding("offlinePlacement", `${at}.extension[${i}]`));
    return;
  }
  const created = typeof resource.created === "string" ? Date.parse(resource.created) : NaN;
  for (const { e, i } of found) {
    const where = `${at}.extension[${i}]`;
    if (e.url === EXTENSIONS.eligibilityOfflineReference) {
      if (typeof e.valueString !== "string" || !e.valueString.trim()) out.push(finding("offlineValue", where));
      continue;
    }
    if (typeof e.valueDateTime !== "string" || !DATE_TIME.test(e.valueDateTime)) {
      out.push(finding("offlineValue", where));
      continue;
    }
    const day = e.valueDateTime.length === 10 ? Date.parse(`${e.valueDateTime}T00:00:00Z`) : Date.parse(e.valueDateTime);
    // A day-only date is compared as a day (the insurer's day may be ahead of UTC by hours).
    const limit = e.valueDateTime.length === 10 ? created + 86_400_000 : created + 15 * 60_000;
    if (Number.isFinite(created) && Number.isFinite(day) && day > limit) out.push(finding("offlineDateFuture", `${where}.valueDateTime`));
  }
  const has = (url: string) => found.some(({ e }) => e.url === url);
  if (has(EXTENSIONS.eligibilityOfflineReference) !== has(EXTENSIONS.eligibilityOfflineDate)) out.push(finding("offlineEligibilityPair", `${at}.extension`));
  if (has(EXTENSIONS.authorizationOfflineDate)) {
    const refs = list(resource.insurance).flatMap((ins) => (Array.isArray(ins.preAuthRef) ? ins.preAuthRef : []));
    if (!refs.some((r) => typeof r === "string" && r.trim())) out.push(finding("offlineAuthorizationReference", `${at}.insurance[0].preAuthRef`));
  }
}

function requireAll(resource: Json, at: string, paths: readonly string[], out: Finding[], rule: "required" | "careTeam" = "required"): void {
  for (const path of paths) {
    for (const missing of missingPaths(resource, path)) out.push(finding(rule, `${at}.${missing}`));
  }
}

function checkCurrency(resource: Json, at: string, out: Finding[]): void {
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`));
    if (!isObject(value)) return;
    if (typeof value.currency === "string" && typeof value.value === "number" && value.currency !== "SAR") out.push(finding("currency", `${path}.currency`));
    for (const [key, child] of Object.entries(value)) if (key !== "contained") walk(child, `${path}.${key}`);
  };
  walk(resource, at);
}

function checkPatient(patient: Json, at: string, context: CheckContext, out: Finding[]): void {
  if (patient.active !== undefined && patient.active !== true) out.push(finding("patientActive", `${at}.active`));
  if (typeof patient.birthDate === "string") {
    const today = (context.today ?? new Date()).toISOString().slice(0, 10);
    if (patient.birthDate < "1900-01-01" || patient.birthDate.slice(0, 10) > today) out.push(finding("patientBirthDate", `${at}.birthDate`));
  }
  list(patient.identifier).forEach((identifier, i) => {
    const where = `${at}.identifier[${i}]`;
    const typeCode = codings(identifier.type)[0]?.code;
    const document = patientDocumentOfType(typeof typeCode === "string" ? typeCode : undefined);
    if (!document) {
      out.push(finding("patientIdentifierType", `${where}.type`));
      return;
    }
    const rule = PATIENT_DOCUMENTS[document];
    if (identifier.system !== rule.system) out.push(finding("patientIdentifierType", `${where}.system`, `A ${document} uses ${rule.system}.`));
    const value = typeof identifier.value === "string" ? identifier.value : "";
    if (!rule.pattern.test(value)) {
      if (document === "iqama") out.push(finding("iqama", `${where}.value`));
      else if (document === "nationalId") out.push(finding("nationalId", `${where}.value`));
      else out.push(finding("required", `${where}.value`, `The ${document} number is malformed.`));
    }
  });
}

function checkPractitionerLicence(identifiers: Json[], at: string, context: CheckContext, out: Finding[], single = false): void {
  if (!context.isKnownPractitioner) return;
  identifiers.forEach((identifier, i) => {
    if (identifier.system !== LICENSES.practitioner || typeof identifier.value !== "string") return;
    if (!context.isKnownPractitioner!(identifier.value)) out.push(finding("practitionerUnknown", single ? `${at}.value` : `${at}[${i}].value`));
  });
}

function checkTask(task: Json, at: string, event: RequestEvent, out: Finding[]): void {
  const expected = event === "poll-request" ? TASK_CODES.poll : event === "cancel-request" ? TASK_CODES.cancel : event === "status-check" ? TASK_CODES.status : undefined;
  if (!expected) return;
  const code = codings(task.code).find((c) => c.system === SYSTEMS.taskCode)?.code;
  if (code !== expected) out.push(finding("taskCode", `${at}.code`, `Expected "${expected}".`));
  if (expected !== TASK_CODES.poll) {
    const focus = isObject(task.focus) ? task.focus : undefined;
    if (focus && !(isObject(focus.identifier) && typeof focus.identifier.value === "string")) out.push(finding("taskFocusIdentifier", `${at}.focus`));
  }
}

/** The provider's Communication (guide v2.7 7.4.2.3): about a claim by its business identifier, with a payload. */
function checkCommunication(communication: Json, at: string, out: Finding[]): void {
  const about = list(communication.about);
  if (about.length === 0 || !about.some((a) => isObject(a.identifier) && typeof a.identifier.value === "string")) out.push(finding("communicationAbout", `${at}.about`));
  else if (list(communication.payload).length === 0) out.push(finding("communicationAbout", `${at}.payload`));
}

/**
 * A prior authorization that changes an earlier one (guide v2.7 Table 37): `related` names the
 * earlier request by its business identifier with relationship `prior`, and the request keeps the
 * earlier reference (`insurance.preAuthRef`).
 */
function checkPriorAuthChange(claim: Json, at: string, out: Finding[]): void {
  const related = list(claim.related);
  related.forEach((r, i) => {
    const claimRef = isObject(r.claim) ? r.claim : undefined;
    if (!claimRef || !(isObject(claimRef.identifier) && typeof claimRef.identifier.value === "string")) out.push(finding("priorAuthRelated", `${at}.related[${i}].claim`));
    if (!codings(r.relationship).some((c) => c.code === "prior")) out.push(finding("priorAuthRelated", `${at}.related[${i}].relationship`));
  });
  if (related.length > 0 && !list(claim.insurance).some((ins) => Array.isArray(ins.preAuthRef) && ins.preAuthRef.some((ref) => typeof ref === "string" && ref.length > 0))) {
    out.push(finding("priorAuthChangeRef", `${at}.insurance[0].preAuthRef`));
  }
}

const minor = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? Math.round(value * 100) : undefined);
const moneyOf = (money: unknown): number | undefined => (isObject(money) ? minor(money.value) : undefined);
const extensionValue = (element: Json, url: string): unknown => list(element.extension).find((e) => e.url === url);

/** The prescriber's Claim profile (prescriber-request, use predetermination; guide 7.11 and 9.6). */
export const PRESCRIBER_PROFILE = "prescriber-priorauth";

function checkClaim(entry: MessageEntry, at: string, index: MessageIndex, event: RequestEvent | undefined, context: CheckContext, out: Finding[]): void {
  const claim = entry.resource!;
  const typeCoding = codings(claim.type).find((c) => c.system === SYSTEMS.claimType);
  const type = typeCoding?.code;
  if (!isClaimType(type)) {
    out.push(finding("claimType", `${at}.type`));
    requireAll(claim, at, claimRequiredPaths("institutional").filter((p) => !CARE_TEAM_PATHS.includes(p)), out);
    return;
  }
  const claimType: ClaimType = type;
  // A prescriber's predetermination (prescriber-request) is checked as a prior authorization.
  const predetermination = claim.use === "predetermination";
  const use: ClaimUse = claim.use === "preauthorization" || predetermination ? "preauthorization" : "claim";
  const declared = declaredProfiles(claim);
  const profileName = predetermination ? PRESCRIBER_PROFILE : claimProfileName(claimType, use);
  if (declared.length > 0 && !declared.includes(profileName)) {
    out.push(finding("claimProfile", `${at}.meta.profile`, `A ${claimType} ${predetermination ? "predetermination" : use} declares ${profileName}.`));
  }
  const paths = claimRequiredPaths(claimType);
  requireAll(claim, at, paths.filter((p) => !CARE_TEAM_PATHS.includes(p)), out);
  requireAll(claim, at, paths.filter((p) => CARE_TEAM_PATHS.includes(p)), out, "careTeam");

  const subtypeCode = codings(claim.subType).find((c) => c.system === SYSTEMS.claimSubtype)?.code;
  const subtype = typeof subtypeCode === "string" ? subtypeCode : undefined;
  if (claim.subType !== undefined && !(SUBTYPES_BY_CLAIM_TYPE[claimType] as readonly unknown[]).includes(subtype)) {
    out.push(finding("claimSubtype", `${at}.subType`, `A ${claimType} claim takes ${SUBTYPES_BY_CLAIM_TYPE[claimType].join(" or ")}.`));
  }
  if (Array.isArray(claim.procedure) && claim.procedure.length > 0) out.push(finding("procedureElement", `${at}.procedure`));
  if (claim.use === "preauthorization") checkPriorAuthChange(claim, at, out);

  const onAdmissionRequired = requiresOnAdmission(claimType, subtype);
  list(claim.diagnosis).forEach((diagnosis, i) => {
    const where = `${at}.diagnosis[${i}]`;
    const coding = codings(diagnosis.diagnosisCodeableConcept);
    if (coding.length > 0 && !coding.some((c) => DIAGNOSIS_SYSTEMS.includes(String(c.system)))) out.push(finding("diagnosisSystem", `${where}.diagnosisCodeableConcept`));
    list(diagnosis.type).forEach((t, j) => {
      if (!codings(t).some((c) => c.system === SYSTEMS.diagnosisType && (DIAGNOSIS_TYPES as readonly unknown[]).includes(c.code))) out.push(finding("diagnosisType", `${where}.type[${j}]`));
    });
    // BV-00027: an inpatient stay's diagnoses say whether each was present on admission; any
    // onAdmission given is a diagnosis-on-admission code.
    if (diagnosis.onAdmission === undefined) {
      if (onAdmissionRequired) out.push(finding("onAdmission", `${where}.onAdmission`));
    } else if (!codings(diagnosis.onAdmission).some((c) => c.system === SYSTEMS.diagnosisOnAdmission && (DIAGNOSIS_ON_ADMISSION_CODES as readonly unknown[]).includes(c.code))) {
      out.push(finding("onAdmissionCode", `${where}.onAdmission`));
    }
  });

  const categories = list(claim.supportingInfo).map((info, i) => {
    const code = codings(info.category).find((c) => c.system === SYSTEMS.claimInformationCategory)?.code;
    if (!(SUPPORTING_INFO_CATEGORIES as readonly unknown[]).includes(code)) out.push(finding("supportingInfoCategory", `${at}.supportingInfo[${i}].category`));
    if (code === "estimated-Length-of-Stay") checkEstimatedStay(info, `${at}.supportingInfo[${i}]`, out);
    return code;
  });
  // The setting's required supporting information (type, subtype and use): the guide's own code
  // where it publishes one for the category (BV-00802 the estimated stay), else BV-90008.
  for (const needed of requiredSupportingInfo(claimType, subtype, use)) {
    if (categories.includes(needed)) continue;
    const own = SUPPORTING_INFO_BY_SETTING.find((r) => r.type === claimType && r.category === needed)?.rule ?? CHIEF_COMPLAINT_RULES[claimType];
    out.push(own && (needed !== "chief-complaint" || CHIEF_COMPLAINT_RULES[claimType]) ? finding(own, `${at}.supportingInfo`) : finding("supportingInfoRequired", `${at}.supportingInfo`, `A ${claimType} ${use} needs "${needed}".`));
  }

  const allowedSystems = ITEM_SYSTEMS_BY_CLAIM_TYPE[claimType];
  let sum = 0;
  let sumKnown = true;
  list(claim.item).forEach((item, i) => {
    const where = `${at}.item[${i}]`;
    const coding = codings(item.productOrService);
    if (coding.length > 0 && !coding.some((c) => allowedSystems.includes(String(c.system)))) {
      out.push(finding("itemCodeSystem", `${where}.productOrService`, `Found ${coding.map((c) => String(c.system)).join(", ")}.`));
    }
    // One code per concept: two codings from the setting's item value set (in different systems).
    const inValueSet = coding.map((c, j) => ({ c, j })).filter(({ c }) => allowedSystems.includes(String(c.system)));
    const second = inValueSet.find(({ c }, k) => k > 0 && c.system !== inValueSet[0]!.c.system);
    if (second) out.push(finding("codingTwoCodes", `${where}.productOrService.coding[${second.j}]`));
    checkActivation(item, claim, `${where}.productOrService`, coding, context, out);
    if (claimType === "oral" && coding.some((c) => c.system === SYSTEMS.oralHealthOp || c.system === SYSTEMS.oralHealthIp) && !item.bodySite) {
      out.push(finding("oralTooth", `${where}.bodySite`));
    }
    const net = moneyOf(item.net);
    const unit = moneyOf(item.unitPrice);
    const quantity = isObject(item.quantity) && typeof item.quantity.value === "number" ? item.quantity.value : 1;
    const factor = typeof item.factor === "number" ? item.factor : 1;
    const taxExt = extensionValue(item, EXTENSIONS.tax);
    const tax = isObject(taxExt) ? (moneyOf(taxExt.valueMoney) ?? 0) : 0;
    if (net === undefined) sumKnown = false;
    else sum += net;
    if (net !== undefined && unit !== undefined && Math.abs(Math.round(unit * quantity * factor) + tax - net) > 1) {
      out.push(finding("itemNet", `${where}.net`));
    }
  });
  const total = moneyOf(claim.total);
  if (total !== undefined && sumKnown && list(claim.item).length > 0 && total !== sum) out.push(finding("total", `${at}.total`));

  if (predetermination) checkPrescription(claim, entry, at, index, out);

  // The Minimum Data Set (decision 103, 104): claims and prior authorizations, not a prescriber's predetermination.
  if (!predetermination && event !== "prescriber-request") {
    checkMinimumDataSet({ claim, entry, at, bundleAt: at.slice(0, at.lastIndexOf(".entry[")), index, type: claimType, subtype, use }, out);
  }
}

/**
 * A prescriber's predetermination (guide 7.11, 9.6; docs/decisions/116): each line names a
 * medicine by scientific code or GTIN (then why it has no scientific code); a line that names its
 * MedicationRequest (the portal's always do) names an entry of the message that gives the dose,
 * timing and refills asked.
 */
function checkPrescription(claim: Json, entry: MessageEntry, at: string, index: MessageIndex, out: Finding[]): void {
  list(claim.item).forEach((item, i) => {
    const where = `${at}.item[${i}]`;
    const coding = codings(item.productOrService);
    const scientific = coding.some((c) => c.system === SYSTEMS.scientificCodes);
    const gtin = coding.some((c) => c.system === SYSTEMS.medicationCodes);
    if (!scientific && !gtin) out.push(finding("prescriptionMedicine", `${where}.productOrService`));
    if (gtin && !scientific && !codings(isObject(extensionValue(item, EXTENSIONS.absenceOfScientificCode)) ? (extensionValue(item, EXTENSIONS.absenceOfScientificCode) as Json).valueCodeableConcept : undefined).some((c) => c.system === SYSTEMS.absenceOfScientificCode && typeof c.code === "string")) {
      out.push(finding("prescriptionAbsenceReason", `${where}.extension`));
    }
    const pointer = extensionValue(item, EXTENSIONS.prescription);
    // A line may go without its MedicationRequest (the dose then travels as the line's own days
    // supply, as real prescriber requests are written); one that names it names an entry of that type.
    if (pointer === undefined) return;
    const resolution = isObject(pointer) ? resolveReference(index, pointer.valueReference, entry) : undefined;
    const request = resolution?.kind === "entry" ? resolution.entry : undefined;
    if (!request || request.resource?.resourceType !== "MedicationRequest") {
      out.push(finding("prescriptionLine", `${where}.extension`));
      return;
    }
    const dosage = list(request.resource.dosageInstruction)[0];
    const repeat = isObject(dosage) && isObject(dosage.timing) && isObject(dosage.timing.repeat) ? dosage.timing.repeat : undefined;
    const count = repeat?.count;
    const requestAt = `${at.slice(0, at.lastIndexOf(".entry["))}.entry[${request.index}].resource.dosageInstruction[0]`;
    if (!repeat || typeof repeat.frequency !== "number" || typeof repeat.period !== "number") out.push(finding("prescriptionDosage", `${requestAt}.timing.repeat`));
    else if (count !== undefined && (typeof count !== "number" || !Number.isInteger(count) || count < 1)) out.push(finding("prescriptionDosage", `${requestAt}.timing.repeat.count`));
    if (!isObject(dosage) || list(dosage.doseAndRate).length === 0) out.push(finding("prescriptionDosage", `${requestAt}.doseAndRate`));
  });
}

/** The chief complaint's own code per care setting (institutional BV-00770, professional BV-00779). */
const CHIEF_COMPLAINT_RULES: Partial<Record<ClaimType, RuleId>> = { institutional: "chiefComplaintInstitutional", professional: "chiefComplaintProfessional" };

/** The item's code is active on its service date (its catalogue entry's activation period). */
function checkActivation(item: Json, claim: Json, at: string, coding: Json[], context: CheckContext, out: Finding[]): void {
  if (!context.codeActivation) return;
  const day = dayOf(item.servicedDate) ?? dayOf(isObject(item.servicedPeriod) ? item.servicedPeriod.start : undefined) ?? dayOf(claim.created);
  if (!day) return;
  for (const c of coding) {
    if (typeof c.system !== "string" || typeof c.code !== "string") continue;
    const period = context.codeActivation(c.system, c.code);
    if (!period) continue;
    if ((period.start && day < period.start) || (period.end && day > period.end)) {
      out.push(finding("codeInactive", at, `${c.code} is billable ${period.start ?? "…"} to ${period.end ?? "…"}; the service date is ${day}.`));
      return;
    }
  }
}

/** The publisher's error sample: one CodeableConcept with two codings of one code system. */
function checkCodings(resource: Json, at: string, out: Finding[]): void {
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`));
    if (!isObject(value)) return;
    if (Array.isArray(value.coding)) {
      const seen = new Set<string>();
      list(value.coding).forEach((c, j) => {
        if (typeof c.system !== "string") return;
        if (seen.has(c.system)) out.push(finding("codingSystemTwice", `${path}.coding[${j}]`, `${c.system} appears twice.`));
        seen.add(c.system);
      });
    }
    for (const [key, child] of Object.entries(value)) if (key !== "contained") walk(child, `${path}.${key}`);
  };
  walk(resource, at);
}

/**
 * The exchange's extensions (Table 10, p. 52–56, and ours), compared without case or hyphens: the
 * guide spells some two ways (patientShare / patient-share, conditionOnset / condition-onset).
 */
const normalExtension = (name: string) => name.toLowerCase().replace(/-/g, "");
const TABLE_10_EXTENSIONS = [
  "absence-of-scientific-code", "accountingPeriod", "adjudication-outcome", "adjudication-reissue", "admissionSpecialty", "advancedAuth-reason",
  "authorization-offline-date", "batch-count", "batch-identifier", "batch-item", "batch-number", "batch-period", "ksa-administrative-gender",
  "causeOfDeath", "intendedLengthOfStay", "condition-onset", "emergencyArrivalCode", "diagnosis", "diagnosis-diagnosisCodeableConcept",
  "diagnosis-sequence", "diagnosis-type", "dischargeSpecialty", "eligibility-offline-date", "eligibility-offline-reference",
  "eligibility-response", "emergencyDepartmentDisposition", "emergencyServiceStart", "encounter", "episode", "newborn", "informationSequence",
  "ksa-diagnosis-related-group", "occupation", "medicationRequest", "package", "patientInvoice", "patientShare", "payerShare",
  "pharmacist-substitute", "pharmacist-Selection-Reason", "prescribed-Medication", "prescription", "providerType", "referringProvider",
  "request", "sender", "sequence", "serviceEventType", "serviceProvider", "siteEligibility", "strength", "supportingInfo",
  "supportingInfo-category", "supportingInfo-code", "supportingInfo-reason", "supportingInfo-sequence", "supportingInfo-timingDate",
  "supportingInfo-timingPeriod", "supportingInfo-valueAttachment", "supportingInfo-valueBoolean", "supportingInfo-valueQuantity",
  "supportingInfo-valueReference", "supportingInfo-valueString", "tax", "transfer", "transferAuthorizationNumber",
  "transferAuthorizationPeriod", "transferAuthorizationProvider", "triageCategory", "triageDate", "maternity", "patient-religion",
];
const EXTENSION_PREFIX = `${NPHIES_STRUCTURE_BASE}/extension-`;
const KNOWN_EXTENSIONS = new Set([
  ...TABLE_10_EXTENSIONS.map(normalExtension),
  ...[...Object.values(EXTENSIONS), ...Object.values(MDS_EXTENSIONS)].map((url) => normalExtension(url.slice(EXTENSION_PREFIX.length))),
]);

/** An extension URL of the exchange that is none of its extensions: an element the profiles do not define. */
function checkExchangeExtensions(resource: Json, at: string, out: Finding[]): void {
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`));
    if (!isObject(value)) return;
    if (typeof value.url === "string" && value.url.startsWith(EXTENSION_PREFIX) && !KNOWN_EXTENSIONS.has(normalExtension(value.url.slice(EXTENSION_PREFIX.length)))) {
      out.push(finding("profileElement", `${path}.url`, `${value.url.slice(EXTENSION_PREFIX.length - "extension-".length)} is not an extension of the exchange.`));
    }
    for (const [key, child] of Object.entries(value)) if (key !== "contained") walk(child, `${path}.${key}`);
  };
  walk(resource, at);
}

/** An estimated length of stay: a valueQuantity of whole days (UCUM `d`), at least one. */
function checkEstimatedStay(info: Json, at: string, out: Finding[]): void {
  const quantity = isObject(info.valueQuantity) ? info.valueQuantity : undefined;
  const value = quantity?.value;
  if (!quantity || quantity.system !== SYSTEMS.ucum || quantity.code !== "d" || typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    out.push(finding("estimatedStayValue", `${at}.valueQuantity`, quantity && typeof quantity.code === "string" && quantity.code !== "d" ? `Found the unit "${quantity.code}".` : undefined));
  }
}

// ---- Newborns and the coverage a request names -------------------------------------------------

/** The request is for a newborn covered under a parent's policy (extension-newborn = true). */
export function isNewbornRequest(request: Json): boolean {
  const ext = extensionValue(request, EXTENSIONS.newborn);
  return isObject(ext) && ext.valueBoolean === true;
}

const DAY = /^\d{4}-\d{2}-\d{2}/;
const dayOf = (value: unknown): string | undefined => (typeof value === "string" && DAY.test(value) ? value.slice(0, 10) : undefined);
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The service dates of a request, each with the element it comes from: an eligibility request's
 * servicedDate or servicedPeriod.start, else created; a claim's items' serviced dates, else its
 * billablePeriod.start, else created.
 */
function serviceDates(request: Json, at: string): { day: string; at: string }[] {
  const own = (holder: Json, where: string): { day: string; at: string } | undefined => {
    const date = dayOf(holder.servicedDate);
    if (date) return { day: date, at: `${where}.servicedDate` };
    const start = dayOf(isObject(holder.servicedPeriod) ? holder.servicedPeriod.start : undefined);
    return start ? { day: start, at: `${where}.servicedPeriod.start` } : undefined;
  };
  const created = dayOf(request.created);
  const fallback = created ? [{ day: created, at: `${at}.created` }] : [];
  if (request.resourceType === "CoverageEligibilityRequest") {
    const date = own(request, at);
    return date ? [date] : fallback;
  }
  const items = list(request.item).flatMap((item, i) => {
    const date = own(item, `${at}.item[${i}]`);
    return date ? [date] : [];
  });
  if (items.length > 0) return items;
  const billable = dayOf(isObject(request.billablePeriod) ? request.billablePeriod.start : undefined);
  return billable ? [{ day: billable, at: `${at}.billablePeriod.start` }] : fallback;
}

/**
 * Document numbers of a person a reference names: its entry's identifiers, or the reference's own
 * (compared by value: a reference may spell the system differently, and the document kinds'
 * numbers do not overlap).
 */
function personKeys(reference: unknown, entry: MessageEntry | undefined): Set<string> {
  const identifiers = entry?.resource ? list(entry.resource.identifier) : isObject(reference) && isObject(reference.identifier) ? [reference.identifier] : [];
  return new Set(identifiers.flatMap((i) => (typeof i.value === "string" && i.value ? [i.value] : [])));
}

/**
 * Rules that read the request with the Patient and Coverage it names
 * (docs/decisions/056): a coverage whose beneficiary is someone else is refused unless the
 * request is for a newborn under a parent's coverage; a newborn must be within the newborn window
 * at every service date; a newborn's claim or prior authorization of the birth encounter carries the birth weight, and a
 * birth weight is in kilograms.
 */
function checkPatientAndCoverage(entry: MessageEntry, at: string, index: MessageIndex, out: Finding[]): void {
  const request = entry.resource!;
  const newborn = isNewbornRequest(request);
  const bundleAt = at.slice(0, at.lastIndexOf(".entry["));
  const patientResolution = resolveReference(index, request.patient, entry);
  const patientEntry = patientResolution.kind === "entry" && patientResolution.entry.resource?.resourceType === "Patient" ? patientResolution.entry : undefined;

  if (!newborn && (patientEntry || patientResolution.kind === "identifier")) {
    const patientKeys = personKeys(request.patient, patientEntry);
    list(request.insurance).forEach((insurance, i) => {
      const coverage = resolveReference(index, insurance.coverage, entry);
      if (coverage.kind !== "entry" || coverage.entry.resource?.resourceType !== "Coverage") return;
      const beneficiaryRef = coverage.entry.resource.beneficiary;
      const beneficiary = resolveReference(index, beneficiaryRef, coverage.entry);
      if (beneficiary.kind !== "entry" && beneficiary.kind !== "identifier") return;
      const beneficiaryEntry = beneficiary.kind === "entry" ? beneficiary.entry : undefined;
      if (beneficiaryEntry && beneficiaryEntry === patientEntry) return;
      const keys = personKeys(beneficiaryRef, beneficiaryEntry);
      if ([...keys].some((k) => patientKeys.has(k))) return;
      if (keys.size === 0 && !beneficiaryEntry) return;
      out.push(finding("coverageBeneficiary", `${at}.insurance[${i}].coverage`, "Its beneficiary is another person and the request does not say the patient is a newborn."));
    });
  }

  if (newborn && patientEntry) {
    const birthAt = `${bundleAt}.entry[${patientEntry.index}].resource.birthDate`;
    const birth = dayOf(patientEntry.resource!.birthDate);
    if (typeof patientEntry.resource!.birthDate === "string" && !birth) {
      out.push(finding("newbornAge", birthAt, "A newborn's birth date must be a full date."));
    } else if (birth) {
      const outside = serviceDates(request, at).find((d) => {
        const age = daysBetween(birth, d.day);
        return age < 0 || age > NEWBORN_WINDOW_DAYS;
      });
      if (outside) out.push(finding("newbornAge", birthAt, `The service date at ${outside.at} is outside it.`));
    }
  }

  if (request.resourceType !== "Claim") return;
  const weights = list(request.supportingInfo)
    .map((info, i) => ({ info, i }))
    .filter(({ info }) => codings(info.category).some((c) => c.system === SYSTEMS.claimInformationCategory && c.code === "birth-weight"));
  for (const { info, i } of weights) {
    const quantity = isObject(info.valueQuantity) ? info.valueQuantity : undefined;
    if (!quantity || quantity.system !== SYSTEMS.ucum || quantity.code !== "kg" || typeof quantity.value !== "number") {
      out.push(finding("birthWeightUnit", `${at}.supportingInfo[${i}].valueQuantity`, quantity && typeof quantity.code === "string" ? `Found the unit "${quantity.code}".` : undefined));
    }
  }
  // Guide 6.5 (p. 96): "Birthweight is required only on the newborn encounter - i.e. the birth
  // encounter": a request whose service days include the baby's birth date. Later visits within
  // the newborn days go without it (decision 120).
  if (newborn && weights.length === 0 && isBirthEncounter(request, at, patientEntry)) out.push(finding("newbornBirthWeight", `${at}.supportingInfo`));
}

/**
 * The request is the baby's birth encounter: one of its service days is the Patient's birth date.
 * Without a Patient entry (or its birth date) it is taken as one — the weight is then asked, as
 * before decision 120.
 */
function isBirthEncounter(request: Json, at: string, patientEntry: MessageEntry | undefined): boolean {
  const birth = patientEntry ? dayOf(patientEntry.resource!.birthDate) : undefined;
  if (!birth) return true;
  return serviceDates(request, at).some((d) => d.day === birth);
}

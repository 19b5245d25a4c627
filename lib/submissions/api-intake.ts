import type { ClaimResponse, Identifier, OperationOutcomeIssue } from "@medplum/fhirtypes";
import { AppError, issuePath, type FieldIssue } from "@/lib/errors";
import type { Db, SubmissionKind } from "@/lib/db";
import { z } from "zod";
import {
  ClaimResponseSchema,
  ClaimSchema,
  ExtensionSchema,
  IdentifierSchema,
  PORTAL_SUBMISSION_ID_SYSTEM,
  PORTAL_SUBMISSION_STATUS_EXTENSION,
  checkNationalId,
  nphies,
  PLATFORM_CURRENCY,
  money,
  parseReference,
  platformIssue,
  toMinorUnits,
  type ClaimParsed,
} from "@/lib/fhir";
import { claimIdentifierSystem } from "./identifiers";
import type { PlatformProtocol } from "./care-setting";
import { claimUseOf } from "./kinds";
import type { Submission } from "./states";
import type { ScrubBlockedError } from "./lifecycle";
import { birthWeightMissing, claimRuleProblem, type CheckedClaim } from "./claim-rules";
import { intake, type IntakeAudit } from "./intake";
import { claimLineShares } from "@/lib/contracts";
import { mdsCodeLists } from "@/lib/terminology";
import type { MdsCodeLists } from "@/lib/fhir/mds";
import { NEWBORN_DAYS, coverageTermsByRef, requestCoverageUse } from "@/lib/patients";

/*
 * A Claim that arrives through a machine API — the exchange API's `POST /api/exchange/claims/submit`
 * and its changes, the gateway's `POST /fhir/Claim`, claim/authorization agents and MCP tools: the
 * FHIR structure and the caller's part (use, provider, national ID, identifier), then the
 * exchange's rules every intake shares (claim-rules.ts), then the intake (intake.ts) — one
 * idempotency rule, one acknowledgement, one replay status (docs/decisions/032, 129).
 */

/** The status of a replayed Claim (same caller, same identifier): the same answer as the first time. */
export const API_CLAIM_REPLAY_STATUS = 202;
/** The status of a newly accepted Claim. */
export const API_CLAIM_ACCEPTED_STATUS = 202;

export interface ApiClaimRules {
  /** The clinic's Organization id at the platform: `provider` of every Claim. */
  providerOrgId: string;
  /** PLATFORM_PROTOCOL: in messaging, a line in CPT is refused (the national exchange does not take it); default rest. */
  protocol?: PlatformProtocol;
  /** Sandbox test identities (1000000000–1000000099) pass the national-ID check only in the sandbox. */
  allowSandboxTestIds: boolean;
  /** The kind the endpoint takes (`use` filled in when absent); undefined: `use` must say claim or preauthorization. */
  kind?: SubmissionKind;
  /** Where the Claim sits in the request, for field paths: `Claim` (FHIR endpoints) or `data.claim` (/query). */
  prefix: string;
  /** The caller's own business identifier is required (exchange API contract, docs/decisions/020). */
  requireIdentifier: boolean;
  /** The visit details' value sets as the catalogue holds them (messaging; absent: the demo lists, decision 118). */
  codeLists?: MdsCodeLists;
}

const KIND_LABEL: Record<SubmissionKind, string> = { claim: "claim", preauthorization: "authorization request", prescription: "prescription" };

function refuse(code: "invalid_request" | "unprocessable", message: string, reason: string, fields: FieldIssue[], issues?: OperationOutcomeIssue[]): AppError {
  return new AppError(code, message, { reason, fields, issues });
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = body;
  for (const p of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[p];
  }
  return current;
}

/** The caller's own business identifier: the first Claim.identifier with a value. */
export function callerIdentifier(identifiers: Identifier[] | undefined): { system?: string; value: string } | undefined {
  const first = identifiers?.find((i) => typeof i.value === "string" && i.value.trim() !== "");
  return first ? { ...(first.system ? { system: first.system } : {}), value: first.value! } : undefined;
}

/**
 * Validates a FHIR Claim sent by an API caller and fills in what the portal owns (`use` for a
 * kind-specific endpoint, `provider` = this clinic). Failures name each field:
 * malformed (not an object, wrong resourceType, a wrong type or format) → 400 `invalid_request`;
 * missing required elements → 422 `unprocessable` (ERR-004 in FHIR); rules (use, provider,
 * national ID, identifier, total) → 422 `unprocessable`.
 */
export function validateApiClaim(input: unknown, rules: ApiClaimRules): { claim: CheckedClaim; kind: SubmissionKind; identifier?: { system?: string; value: string } } {
  const { prefix } = rules;
  const at = (...path: PropertyKey[]) => issuePath(prefix, path);
  if (input === undefined) {
    throw refuse("unprocessable", `${prefix} is required: a FHIR Claim.`, "missing_field", [{ path: prefix, message: "required: a FHIR Claim" }]);
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw refuse("invalid_request", `${prefix} must be a FHIR Claim (a JSON object).`, "not_object", [{ path: prefix, message: "expected a FHIR Claim object" }]);
  }
  const body = { ...(input as Record<string, unknown>) };
  if (body.resourceType !== "Claim") {
    throw refuse("invalid_request", "resourceType must be Claim.", "resource_type", [{ path: at("resourceType"), message: "must be Claim" }]);
  }
  if (rules.kind) {
    if (body.use === undefined) body.use = rules.kind;
    if (body.use !== rules.kind) {
      const hint = rules.kind === "claim" ? "the authorization agent takes preauthorization" : "the claim agent takes claims";
      throw refuse("unprocessable", `Claim.use must be ${rules.kind} for this task (${hint}).`, "use", [{ path: at("use"), message: `must be ${rules.kind}` }]);
    }
  } else if (body.use !== "claim" && body.use !== "preauthorization") {
    throw refuse("unprocessable", "Claim.use must be claim or preauthorization.", "use", [{ path: at("use"), message: "must be claim or preauthorization" }]);
  }
  const kind = body.use as SubmissionKind;
  const expectedProvider = `Organization/${rules.providerOrgId}`;
  if (body.provider === undefined) body.provider = { reference: expectedProvider };
  else if ((body.provider as { reference?: unknown } | null)?.reference !== expectedProvider) {
    throw refuse("unprocessable", `Claim.provider must be ${expectedProvider} (this clinic) or left out.`, "provider", [
      { path: at("provider"), message: `must be ${expectedProvider} (this clinic) or left out` },
    ]);
  }
  const parsed = ClaimSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 20).map((i) => ({ path: i.path.filter((p): p is string | number => typeof p !== "symbol"), message: i.message, code: i.code }));
    const missing = problems.map((p) => p.code === "invalid_type" && valueAt(body, p.path) === undefined);
    const fields = problems.map((p, n) => ({ path: at(...p.path), message: missing[n] ? "required" : p.message }));
    if (missing.every(Boolean)) {
      const issues = fields.map((f) => platformIssue({ code: "ERR-004", diagnostics: `${f.path}: required`, expression: [f.path] }));
      throw refuse("unprocessable", `The ${KIND_LABEL[kind]} lacks required elements.`, "missing_field", fields, issues);
    }
    throw refuse("invalid_request", `The ${KIND_LABEL[kind]} is not a valid FHIR Claim.`, "invalid_structure", fields);
  }
  const claim = parsed.data;
  const patientId = parseReference(claim.patient.reference, "Patient")?.id;
  if (!patientId || !checkNationalId(patientId, { allowSandboxTestIds: rules.allowSandboxTestIds }).valid) {
    throw refuse("unprocessable", "Claim.patient must reference Patient/<national ID or Iqama number> with a valid number.", "patient", [
      { path: at("patient", "reference"), message: "must be Patient/<valid national ID or Iqama>" },
    ]);
  }
  const identifier = callerIdentifier(claim.identifier);
  if (!identifier && rules.requireIdentifier) {
    const path = at("identifier");
    throw refuse("unprocessable", "Claim.identifier: your business identifier (system and value) is required.", "missing_field", [{ path, message: "required: your business identifier (system and value)" }], [
      platformIssue({ code: "ERR-004", diagnostics: `${path}: your business identifier (system and value) is required`, expression: [path] }),
    ]);
  }
  if (identifier && (identifier.value.length > 200 || (identifier.system?.length ?? 0) > 500)) {
    throw refuse("unprocessable", "Claim.identifier is too long (value at most 200, system at most 500 characters).", "identifier_length", [{ path: at("identifier", 0), message: "too long" }]);
  }
  const portalSystem = claimIdentifierSystem(rules.providerOrgId);
  if (identifier?.system === portalSystem) {
    throw refuse("unprocessable", `Claim.identifier: the system ${portalSystem} is reserved for the portal; use your own.`, "identifier_system", [
      { path: at("identifier", 0, "system"), message: "reserved for the portal" },
    ]);
  }
  // The exchange's rules, the same for every intake (claim-rules.ts).
  const problem = claimRuleProblem(claim, { protocol: rules.protocol ?? "rest", ...(rules.codeLists ? { codeLists: rules.codeLists } : {}) });
  if (problem) throw refuse("unprocessable", problem.message, problem.reason, [{ path: at(...problem.path), message: problem.field }]);
  return { claim: claim as CheckedClaim, kind, identifier };
}

/**
 * Every line's patient share (extension-patientShare), as the screens send it (docs/decisions/091):
 * a share the caller gave is kept; otherwise the contract's and the coverage's terms decide it,
 * exactly as for a form claim. Lines without a price or a date are left as they are.
 */
async function withPatientShares(db: Db, claim: CheckedClaim, insurerId: string | undefined): Promise<CheckedClaim> {
  const items = claim.item ?? [];
  const lacking = items.filter((item) => !item.extension?.some((e) => e.url === nphies.EXTENSIONS.patientShare));
  if (!insurerId || lacking.length === 0) return claim;
  const nationalId = parseReference(claim.patient.reference, "Patient")?.id ?? "";
  const coverageRef = parseReference((claim.insurance.find((i) => i.focal) ?? claim.insurance[0])?.coverage.reference, "Coverage")?.id;
  const coverage = coverageRef ? await coverageTermsByRef(db, coverageRef) : undefined;
  const lines = items.map((item) => {
    const unitPriceMinor = typeof item.unitPrice?.value === "number" ? toMinorUnits(item.unitPrice.value) : undefined;
    const coding = item.productOrService.coding?.find((c) => c.code);
    return unitPriceMinor !== undefined && item.servicedDate && coding?.code
      ? { system: coding.system ?? "", code: coding.code, servicedDate: item.servicedDate, quantity: item.quantity?.value ?? 1, unitPriceMinor }
      : undefined;
  });
  const priced = lines.filter((l): l is NonNullable<typeof l> => l !== undefined);
  if (priced.length === 0) return claim;
  const shares = await claimLineShares(db, { nationalId, insurerId, network: coverage?.network ?? "", coverageClass: coverage?.coverageClass ?? "", items: priced });
  let n = 0;
  const item = items.map((it, i) => {
    if (lines[i] === undefined) return it;
    const share = shares[n++];
    if (!share || it.extension?.some((e) => e.url === nphies.EXTENSIONS.patientShare)) return it;
    return { ...it, extension: [...(it.extension ?? []), { url: nphies.EXTENSIONS.patientShare, valueMoney: money(share.patientMinor, it.unitPrice?.currency ?? PLATFORM_CURRENCY) }] };
  });
  // A share on a line changes none of the exchange's rules (claim-rules.ts): the Claim stays checked.
  return { ...claim, item } as CheckedClaim;
}

/**
 * A baby linked to its mother in the portal, on the mother's coverage (docs/decisions/110): the
 * Claim says it is a newborn's (extension-newborn) and every line is within the newborn days —
 * else 422 naming the element, before anything is stored.
 */
async function checkNewbornCoverage(db: Db, claim: ClaimParsed, nationalId: string, prefix: string, protocol: PlatformProtocol = "rest"): Promise<void> {
  const focal = claim.insurance.find((i) => i.focal) ?? claim.insurance[0];
  const coverageRef = parseReference(focal?.coverage.reference, "Coverage")?.id;
  const days = (claim.item ?? []).map((i) => i.servicedDate).filter((d): d is string => typeof d === "string" && d.length >= 10).map((d) => d.slice(0, 10));
  const flagged = nphies.isNewbornRequest(claim as unknown as Record<string, unknown>);
  const use = await requestCoverageUse(db, nationalId, coverageRef, days, flagged);
  if (use.ok) {
    // Guide 6.5: the birth weight only on the birth encounter (decision 120); the baby's record says when that was.
    if (flagged && protocol === "messaging" && birthWeightMissing(claim, use.newborn ? use.birthDate : undefined, protocol)) {
      throw refuse("unprocessable", `Claim.supportingInfo must carry the newborn's birth weight ("birth-weight", a valueQuantity in kg): a service day is the baby's birth date, the birth encounter (BV-90024).`, "newborn", [
        { path: issuePath(prefix, ["supportingInfo"]), message: `required on the birth encounter: birth-weight (${nphies.SYSTEMS.claimInformationCategory}, kg)` },
      ]);
    }
    return;
  }
  const n = Math.max(0, claim.insurance.indexOf(focal!));
  if (use.reason === "newborn_flag_missing") {
    throw refuse("unprocessable", `${coverageRef} is the mother's coverage of this newborn: a newborn's claim carries extension-newborn (${nphies.EXTENSIONS.newborn}, valueBoolean true).`, "newborn_flag", [
      { path: issuePath(prefix, ["extension"]), message: `required: extension-newborn (the coverage is the mother's)` },
    ]);
  }
  throw refuse("unprocessable", use.reason === "newborn_too_old" ? `The baby is ${use.age} days old on a service date: the mother's coverage covers a newborn for ${NEWBORN_DAYS} days; bill the baby's own coverage.` : "A service date is before the baby's birth.", use.reason, [
    { path: issuePath(prefix, ["insurance", n, "coverage"]), message: use.reason === "newborn_too_old" ? `the mother's coverage covers the newborn for ${NEWBORN_DAYS} days only` : "a service date is before the birth" },
  ]);
}

async function insurerOf(db: Db, claim: ClaimParsed): Promise<string | undefined> {
  const fromClaim = parseReference(claim.insurer?.reference, "Organization")?.id;
  if (fromClaim) return fromClaim;
  const focal = claim.insurance.find((i) => i.focal) ?? claim.insurance[0];
  const coverageRef = parseReference(focal?.coverage.reference, "Coverage")?.id;
  if (!coverageRef) return undefined;
  return (await coverageTermsByRef(db, coverageRef))?.insurerId;
}

export interface ApiClaimSubmission {
  db: Db;
  now: Date;
  /** `submissions.channel`: `exchange-api` or `gateway`. */
  channel: string;
  /** `submissions.created_by`: the calling client (`org:<id>`, `gateway:<token id>`), never a secret. */
  createdBy: string;
  /** A change of an authorization (decision 114): the version it changes (`replaces_id`). */
  replacesId?: string;
  /**
   * The call as the audit names it (the API kernel's actor, action and request): the intake writes
   * the submit's one audit entry in its transaction; the caller marks the call's entry as written.
   */
  audit: Pick<IntakeAudit, "actor" | "action" | "requestId" | "ip"> & { details?: Record<string, unknown> };
}

/**
 * Validates a Claim and hands it to the intake (intake.ts). Idempotent per caller (channel +
 * createdBy) and the caller's identifier: under an advisory lock on that pair, a resubmission
 * finds the first submission and returns it with `replay: true` instead of creating a second one.
 * A Claim the scrubber stops is refused 422 with its findings, and nothing is stored.
 */
export async function submitApiClaim(
  deps: ApiClaimSubmission,
  body: unknown,
  rules: ApiClaimRules,
): Promise<{ submission: Submission; replay: boolean; status: number }> {
  // In messaging the visit details are checked against the catalogue's lists, as the screens' are.
  const codeLists = rules.protocol === "messaging" ? await mdsCodeLists(deps.db) : undefined;
  const { claim, kind, identifier } = validateApiClaim(body, { ...rules, codeLists });
  const patientId = parseReference(claim.patient.reference, "Patient")!.id;
  await checkNewbornCoverage(deps.db, claim, patientId, rules.prefix, rules.protocol ?? "rest");
  const insurerId = await insurerOf(deps.db, claim);
  const shared = await withPatientShares(deps.db, claim, insurerId);
  const entered = await intake(
    deps.db,
    {
      kind,
      claim: shared,
      patientNationalId: patientId,
      ...(insurerId ? { insurerId } : {}),
      channel: deps.channel,
      createdBy: deps.createdBy,
      ...(deps.replacesId ? { links: { replacesId: deps.replacesId } } : {}),
      ...(identifier ? { replayKey: identifier } : {}),
    },
    {
      source: "api",
      now: deps.now,
      // Nobody to ask about warnings: they are kept on the timeline (decision 090).
      scrub: { acknowledgeWarnings: true },
      whenBlocked: "store-nothing",
      audit: { ...deps.audit, details: { ...deps.audit.details, status: API_CLAIM_ACCEPTED_STATUS, kind, ...(deps.replacesId ? { changes: deps.replacesId } : {}) } },
    },
  );
  if (entered.outcome === "blocked") throw scrubRefusal(entered.error, rules.prefix);
  if (entered.outcome === "not_draft") throw new Error("an API intake names no draft");
  const replay = entered.outcome === "replay";
  return { submission: entered.submission, replay, status: replay ? API_CLAIM_REPLAY_STATUS : API_CLAIM_ACCEPTED_STATUS };
}

/**
 * The scrubber's errors as a 422 (docs/decisions/090): one field per finding — the element, the
 * rejection code and family, the words and the fix — and the same as OperationOutcome issues for
 * the FHIR endpoints. Nothing was stored. Warnings never refuse an API call (nobody to ask): they
 * are kept on the submission's timeline.
 */
function scrubRefusal(error: ScrubBlockedError, prefix: string): AppError {
  const errors = error.result.errors;
  const fields = errors.map((f) => ({ path: issuePath(prefix, f.element.replace(/^Claim\.?/, "").split(/[.[\]]+/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p))), message: `${f.code} (${f.family}): ${f.message.en} Fix: ${f.fix.en}` }));
  const issues = errors.map((f) => ({ severity: "error" as const, code: "business-rule" as const, details: { coding: [{ code: f.code }], text: f.message.en }, diagnostics: `${f.message.en} Fix: ${f.fix.en}`, expression: [f.element] }));
  return new AppError("unprocessable", `The claim scrubber found ${errors.length} problem(s) the payer or the exchange would reject; nothing was queued.`, {
    reason: "scrubber",
    fields,
    issues,
    extra: { findings: error.result.findings.map((f) => ({ rule: f.rule, severity: f.severity, family: f.family, code: f.code, element: f.element, message: f.message, fix: f.fix, ...(f.sequence !== undefined ? { sequence: f.sequence } : {}) })) },
  });
}

/** A submission's state as a ClaimResponse.outcome. */
export function claimOutcomeOf(status: Submission["status"]): ClaimResponse["outcome"] {
  switch (status) {
    case "complete":
    case "denied":
      return "complete";
    case "partial":
      return "partial";
    case "rejected":
    case "failed":
    case "cancelled":
      return "error";
    default:
      return "queued";
  }
}

/**
 * The acknowledgement's shape (OpenAPI of both APIs is generated from it): a ClaimResponse whose
 * insurer may be a display only (not known until the platform answers) and whose request names
 * the caller's own identifier.
 */
export const ApiClaimAcknowledgementSchema = ClaimResponseSchema.extend({
  insurer: z.object({ reference: z.string().optional(), display: z.string().optional() }),
  request: z.object({ identifier: IdentifierSchema.optional() }).optional(),
  extension: z.array(ExtensionSchema).optional(),
});

/** The acknowledgement of an API Claim: a ClaimResponse (outcome `queued` while queued) naming the submission. */
export function apiClaimAcknowledgement(submission: Submission, now: Date): ClaimResponse {
  const claim = submission.claim as { type?: ClaimResponse["type"]; patient?: { reference?: string }; provider?: { reference?: string }; identifier?: Identifier[] };
  const own = callerIdentifier(claim.identifier?.filter((i) => i.system !== submission.identifierSystem));
  return {
    resourceType: "ClaimResponse",
    identifier: [
      { system: PORTAL_SUBMISSION_ID_SYSTEM, value: submission.id },
      ...(submission.identifierSystem && submission.identifierValue ? [{ system: submission.identifierSystem, value: submission.identifierValue }] : []),
    ],
    status: "active",
    type: claim.type ?? { coding: [{ code: "institutional" }] },
    use: claimUseOf(submission.kind),
    patient: { reference: claim.patient?.reference ?? `Patient/${submission.patientNationalId}` },
    created: now.toISOString(),
    insurer: submission.insurerId ? { reference: `Organization/${submission.insurerId}` } : { display: "Not known until the platform answers" },
    ...(claim.provider?.reference ? { requestor: { reference: claim.provider.reference } } : {}),
    ...(own ? { request: { identifier: own } } : {}),
    outcome: claimOutcomeOf(submission.status),
    disposition: `Submission ${submission.status}`,
    extension: [{ url: PORTAL_SUBMISSION_STATUS_EXTENSION, valueCode: submission.status }],
  };
}

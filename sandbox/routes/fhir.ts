import type { ClaimResponse, Coverage, CoverageEligibilityResponse, Resource } from "@medplum/fhirtypes";
import { withApprovedRefills } from "../prescriptions";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { MAIL_RESOURCE_TYPES } from "../mailbox";
import { IDENTIFIER_SYSTEMS, checkNationalId, nphies, parseReference, type PlatformIssueInput } from "../../lib/fhir";
import { PAYERS, coveragePeriod, type CoverageDef } from "../reference-data";
import { CPT_SYSTEM } from "../catalogue";
import { ApiError, acceptsFhirJson, fhirReply, isFhirJsonContentType, parseJsonObject, readBody, BodyTooLargeError, UUID_RE, type Reply } from "../http";
import { verifyAccessToken } from "../oauth";
import type { RateLimitGroup } from "../rate-limit";
import { claimView, eligibilityResponse, searchset } from "../resources";
import type { SandboxContext } from "../context";
import { identifierKey, type ClaimRecord } from "../store";
import { TRANSFER_PREFIX } from "../claims-engine";
import { validateClaim, validateEligibilityRequest, type ValidatedEligibility } from "../validation";
import { nationalClaimResponse, nationalEligibilityResponse, type NationalContext } from "../national-style";
import type { Protocol } from "../answer-style";
import { messageRateGroup, processMessage } from "./messaging";
import { cancelByTask, receiveCommunication } from "../information-requests";
import { withSiteEligibility } from "../site-eligibility";
import { receivePaymentNotice } from "../remittances";

/** The platform FHIR interface: endpoints 1–6 of the spec. */

export type FhirRoute =
  | { name: "eligibility"; group: "eligibility" }
  | { name: "claim-create"; group: "claims" }
  | { name: "claim-read"; group: "status"; id: string }
  | { name: "claim-search"; group: "status" }
  | { name: "claimresponse-search"; group: "status" }
  /** The mailbox's resources (sandbox/mailbox.ts): the sandbox's extension of the spec. */
  | { name: "mail-read"; group: "status"; resourceType: string; id: string }
  /** decision 045 (the sandbox's extension of the spec): a cancel Task, the answer to an information request. */
  | { name: "task-create"; group: "claims" }
  | { name: "communication-create"; group: "claims" }
  /** The clinic's PaymentNotice about a remittance (sandbox/remittances.ts): the sandbox's extension of the spec. */
  | { name: "payment-notice"; group: "claims" }
  /** FHIR messaging (the national exchange's protocol): its rate group follows the message's event. */
  | { name: "process-message"; group: "by-event" };

/** Matches method + path; `undefined` = not a FHIR path, `"method"` = path known, method not allowed. */
export function matchFhirRoute(method: string, pathname: string): FhirRoute | { name: "method-not-allowed"; allow: string } | undefined {
  if (pathname === "/$process-message") {
    return method === "POST" ? { name: "process-message", group: "by-event" } : { name: "method-not-allowed", allow: "POST" };
  }
  if (pathname === "/CoverageEligibilityRequest") {
    return method === "POST" ? { name: "eligibility", group: "eligibility" } : { name: "method-not-allowed", allow: "POST" };
  }
  if (pathname === "/Claim") {
    if (method === "POST") return { name: "claim-create", group: "claims" };
    if (method === "GET") return { name: "claim-search", group: "status" };
    return { name: "method-not-allowed", allow: "GET, POST" };
  }
  const read = /^\/Claim\/([^/]+)$/.exec(pathname);
  if (read?.[1]) {
    return method === "GET" ? { name: "claim-read", group: "status", id: safeDecode(read[1]) } : { name: "method-not-allowed", allow: "GET" };
  }
  if (pathname === "/PaymentNotice") {
    return method === "POST" ? { name: "payment-notice", group: "claims" } : { name: "method-not-allowed", allow: "POST" };
  }
  if (pathname === "/ClaimResponse") {
    return method === "GET" ? { name: "claimresponse-search", group: "status" } : { name: "method-not-allowed", allow: "GET" };
  }
  if (pathname === "/Task") {
    return method === "POST" ? { name: "task-create", group: "claims" } : { name: "method-not-allowed", allow: "POST" };
  }
  if (pathname === "/Communication") {
    return method === "POST" ? { name: "communication-create", group: "claims" } : { name: "method-not-allowed", allow: "POST" };
  }
  const mail = /^\/([A-Za-z]+)\/([^/]+)$/.exec(pathname);
  if (mail?.[1] && mail[2] && (MAIL_RESOURCE_TYPES as readonly string[]).includes(mail[1])) {
    return method === "GET" ? { name: "mail-read", group: "status", resourceType: mail[1], id: safeDecode(mail[2]) } : { name: "method-not-allowed", allow: "GET" };
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed %-escapes: no claim has such an id, so the read answers 404
  }
}

/** Route pattern for logs (never the id or the query string). */
export function routePattern(route: FhirRoute): string {
  switch (route.name) {
    case "eligibility":
      return "/CoverageEligibilityRequest";
    case "claim-create":
    case "claim-search":
      return "/Claim";
    case "claim-read":
      return "/Claim/:id";
    case "claimresponse-search":
      return "/ClaimResponse";
    case "mail-read":
      return `/${route.resourceType}/:id`;
    case "task-create":
      return "/Task";
    case "communication-create":
      return "/Communication";
    case "payment-notice":
      return "/PaymentNotice";
    case "process-message":
      return "/$process-message";
  }
}

export async function handleFhir(
  req: IncomingMessage,
  url: URL,
  route: FhirRoute,
  thumbprint: string,
  ctx: SandboxContext,
): Promise<Reply> {
  // 1. Authorization: a valid bearer token bound to this connection's certificate.
  const facility = ctx.facilities.byThumbprint(thumbprint);
  const token = await verifyAccessToken(ctx.tokenKeys, ctx.clock, req.headers.authorization, thumbprint, facility ? thumbprint : ctx.registered.thumbprint());
  if (!token.ok) {
    const error = token.reason === "missing" ? "" : `, error="invalid_token", error_description="${token.message}"`;
    throw ApiError.plain(401, token.reason === "expired" ? "expired" : token.reason === "missing" ? "login" : "security", token.message, {
      "WWW-Authenticate": `Bearer realm="platform-sandbox"${error}`,
    });
  }

  // The licence this certificate speaks for: a facility's own, else the clinic's main one.
  const license = facility?.license ?? ctx.reference.provider.license;
  // Counted per kind: a REST route by its name here, a message by its event once read.
  if (route.name !== "process-message") ctx.facilities.countRequest(license, route.name);

  // 2. Rate limit per client certificate and endpoint group (a message's group: after reading its event).
  let rateHeaders: Record<string, string> = {};
  const limit = (group: RateLimitGroup) => {
    const decision = ctx.limiter.take(thumbprint, group);
    rateHeaders = {
      "RateLimit-Limit": String(decision.limit),
      "RateLimit-Remaining": String(decision.remaining),
      "RateLimit-Reset": String(decision.resetSeconds),
    };
    if (!decision.allowed) {
      throw ApiError.plain(
        429,
        "throttled",
        `Rate limit exceeded: ${decision.limit} ${group} requests per ${Math.round(ctx.rateWindowMs / 1000)} s; retry after ${decision.resetSeconds} s`,
        { ...rateHeaders, "Retry-After": String(decision.resetSeconds) },
      );
    }
  };
  if (route.group !== "by-event") limit(route.group);

  try {
    // 3. Required headers.
    const requestId = req.headers["x-request-id"];
    if (typeof requestId !== "string" || !UUID_RE.test(requestId.trim())) {
      throw ApiError.plain(400, "required", "X-Request-ID header with a UUID is required");
    }
    if (!acceptsFhirJson(req.headers.accept)) {
      throw ApiError.plain(406, "not-supported", "Accept must include application/fhir+json");
    }
    let body: Record<string, unknown> | undefined;
    if (req.method === "POST") {
      if (!isFhirJsonContentType(req.headers["content-type"])) {
        throw ApiError.plain(415, "not-supported", "Content-Type must be application/fhir+json");
      }
      let text: string;
      try {
        text = await readBody(req, ctx.maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          throw ApiError.plain(413, "too-costly", `The request body exceeds ${ctx.maxBodyBytes} bytes`);
        }
        throw error;
      }
      body = parseJsonObject(text);
    }

    const reply =
      route.name === "process-message"
        ? processMessage(body ?? {}, token.providerOrgId, ctx, (event) => {
            ctx.facilities.countRequest(license, event);
            limit(messageRateGroup(event));
          }, license)
        : await dispatch(route, url, body ?? {}, token.providerOrgId, ctx);
    return { ...reply, headers: { ...rateHeaders, ...reply.headers } };
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.status, error.issues, { ...rateHeaders, ...error.headers });
    throw error;
  }
}

async function dispatch(route: FhirRoute, url: URL, body: Record<string, unknown>, providerOrgId: string, ctx: SandboxContext): Promise<Reply> {
  switch (route.name) {
    case "eligibility":
      return eligibility(body, providerOrgId, ctx);
    case "claim-create":
      return createClaim(body, providerOrgId, ctx);
    case "claim-read":
      return readClaim(route.id, providerOrgId, ctx);
    case "claim-search":
      return searchClaims(url, providerOrgId, ctx);
    case "claimresponse-search":
      return searchClaimResponses(url, providerOrgId, ctx);
    case "mail-read": {
      const item = ctx.mailbox.read(providerOrgId, route.resourceType, route.id);
      if (!item) throw ApiError.plain(404, "not-found", `${route.resourceType}/${route.id} not found`);
      return fhirReply(200, item.resource);
    }
    case "task-create":
      return fhirReply(200, cancelByTask(ctx, providerOrgId, body) as Resource);
    case "communication-create":
      return fhirReply(201, receiveCommunication(ctx, providerOrgId, body) as Resource);
    case "payment-notice": {
      const notice = receivePaymentNotice(ctx, providerOrgId, body, "rest");
      return fhirReply(201, notice.resource, { Location: `PaymentNotice/${notice.id}` });
    }
    case "process-message":
      throw new Error("process-message is dispatched by handleFhir");
  }
}

const national = (ctx: SandboxContext, protocol: Protocol = "rest") => ctx.answerStyle.get(protocol) === "national";

/** The context of the national answer style: its FHIR base and the payer as a national exchange names it. */
function nationalContext(ctx: SandboxContext, payerId: string): NationalContext {
  const payer = ctx.reference.payers.find((p) => p.id === payerId);
  return {
    base: `${ctx.baseUrl()}/fhir`,
    payer: { id: payerId, ...(payer?.license ? { license: payer.license } : {}), ...(payer ? { name: payer.name.en } : {}) },
    providerOrgId: ctx.providerOrgId,
  };
}

/** A claim's ClaimResponse in the current answer style (stored in the default form). */
export function claimResponseOf(record: ClaimRecord, ctx: SandboxContext, protocol: Protocol = "rest") {
  // A prescription's answer carries the refills approved on each line (sandbox/prescriptions.ts);
  // a referral's approved prior authorization, the transfer authorization.
  const refills = (response: ClaimResponse) => withApprovedRefills(response, record.claim, ctx.maxRefills);
  const response = withTransferAuthorization(record);
  if (!national(ctx, protocol)) return refills(response);
  const payerId = ctx.reference.coverages.get(record.coverageId)?.payerId ?? "unknown";
  return refills(nationalClaimResponse(response, record.claim, nationalContext(ctx, payerId)));
}

/** The provider the sandbox's payers transfer referred care to (fictional; any facility may claim it). */
export const TRANSFER_PROVIDER = { license: "PR-REFERRAL-HOSPITAL-01", name: "Sandbox Referral Hospital" } as const;

/**
 * A referral's prior authorization (extension-transfer, guide 7.3 step 2), approved: the answer
 * names the receiving provider's authorization — its number (TR-…, the PA-… number's), the period
 * (the authorization's) and the provider (Table 10: transferAuthorizationNumber, -Period, -Provider).
 */
function withTransferAuthorization(record: ClaimRecord): ClaimResponse {
  const response = record.response;
  const transfer = (record.claim.extension ?? []).some((e) => e.url === nphies.EXTENSIONS.transfer && e.valueBoolean === true);
  if (record.use !== "preauthorization" || !transfer || !record.preAuthRef || (response.outcome !== "complete" && response.outcome !== "partial")) return response;
  const start = (response.preAuthPeriod?.start ?? response.created).slice(0, 10);
  const end = response.preAuthPeriod?.end?.slice(0, 10) ?? new Date(Date.parse(`${start}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
  return {
    ...response,
    extension: [
      ...(response.extension ?? []),
      { url: nphies.EXTENSIONS.transferAuthorizationNumber, valueString: `${TRANSFER_PREFIX}${record.preAuthRef.replace(/^PA-/, "")}` },
      { url: nphies.EXTENSIONS.transferAuthorizationPeriod, valuePeriod: { start, end } },
      { url: nphies.EXTENSIONS.transferAuthorizationProvider, valueReference: { type: "Organization", identifier: { system: nphies.LICENSES.provider, value: TRANSFER_PROVIDER.license }, display: TRANSFER_PROVIDER.name } },
    ],
  };
}

/** `Location` of a claim: `Claim/{id}` by default; absolute with its version in the national style. */
function claimLocation(record: ClaimRecord, ctx: SandboxContext): string {
  return national(ctx) ? `${ctx.baseUrl()}/Claim/${record.id}/_history/${record.version}` : `Claim/${record.id}`;
}

export function eligibility(
  body: Record<string, unknown>,
  providerOrgId: string,
  ctx: SandboxContext,
  protocol: Protocol = "rest",
  /** Messaging: the message's own focus (its servicedPeriod) and the sending site's licence. */
  message?: { raw: Record<string, unknown>; providerLicense: string | undefined },
): Reply {
  const input = message ? { ...body, servicedPeriod: message.raw.servicedPeriod } : body;
  // Discovery (guide 7.1, Table 36): the insurer reports the coverages it holds for the patient;
  // holding none is an answer too (no insurance), not a refusal.
  const discovery = Array.isArray(body.purpose) && body.purpose.includes("discovery");
  let v;
  try {
    v = validateEligibilityRequest(input, ctx.reference, providerOrgId, ctx.clock.now());
  } catch (error) {
    if (!discovery || !(error instanceof ApiError) || !error.issues.some((i) => i.details?.coding?.some((c) => c.code === "ERR-002"))) throw error;
    return fhirReply(200, noCoverageFound(input, ctx));
  }
  const answered = eligibilityResponse(v, {
    id: randomUUID(),
    requestId: randomUUID(),
    now: ctx.clock.now(),
    reference: ctx.reference,
    consumed: (category, year) => ctx.store.consumed(v.coverage.id, category, year),
    // Which services need an authorization is answered in the codes the protocol bills in: CPT in
    // the spec's REST; the exchange refuses CPT, so a message names its own systems' services (decision 125).
    services: [...ctx.reference.catalogue.values()].filter((p) => (p.system === CPT_SYSTEM) === (protocol === "rest")),
  });
  const built = discovery ? withDiscoveredCoverages(answered, v, ctx) : answered;
  const response = message ? withSiteEligibility(built, v.coverage, message.providerLicense, ctx) : built;
  if (!national(ctx, protocol)) return fhirReply(200, response);
  const preauthCategories = new Set([...ctx.reference.priceList.values()].filter((p) => p.requiresPreauth).map((p) => p.category as string));
  return fhirReply(200, nationalEligibilityResponse(response, { ...nationalContext(ctx, v.coverage.payerId), preauthCategories }));
}

/** A discovery the insurer holds no coverage for: complete, no insurance. */
function noCoverageFound(body: Record<string, unknown>, ctx: SandboxContext): CoverageEligibilityResponse {
  const id = randomUUID();
  const now = new Date(ctx.clock.now()).toISOString();
  const ref = (v: unknown) => (typeof (v as { reference?: unknown } | undefined)?.reference === "string" ? { reference: (v as { reference: string }).reference } : undefined);
  const period = body.servicedPeriod as { start?: string; end?: string } | undefined;
  return {
    resourceType: "CoverageEligibilityResponse",
    id,
    identifier: [{ system: IDENTIFIER_SYSTEMS.platformResponse, value: id }],
    status: "active",
    purpose: (body.purpose as CoverageEligibilityResponse["purpose"]) ?? ["discovery"],
    patient: ref(body.patient) ?? { reference: "Patient/unknown" },
    ...(period?.start ? { servicedPeriod: { start: period.start, end: period.end ?? period.start } } : { servicedDate: typeof body.servicedDate === "string" ? body.servicedDate : now.slice(0, 10) }),
    created: now,
    ...(ref(body.provider) ? { requestor: ref(body.provider) } : {}),
    request: { reference: `CoverageEligibilityRequest/${randomUUID()}` },
    outcome: "complete",
    disposition: "No coverage of this insurer was found for the patient.",
    insurer: ref(body.insurer) ?? { reference: "Organization/unknown" },
  };
}

/**
 * A discovery's answer carries each coverage the insurer holds for the patient as a contained
 * Coverage the insurance names (`#id`): member number, plan and class, network, period, the
 * patient's co-pay — what the clinic registers. The coverage the answer is about comes first,
 * then the insurer's other coverages of the patient (in force or not, no benefits).
 */
function withDiscoveredCoverages(response: CoverageEligibilityResponse, v: ValidatedEligibility, ctx: SandboxContext): CoverageEligibilityResponse {
  const now = new Date(ctx.clock.now());
  const others = (ctx.reference.coveragesByPatient.get(v.patientId) ?? []).filter((c) => c.payerId === v.coverage.payerId && c.id !== v.coverage.id);
  const all = [v.coverage, ...others];
  const contained = all.map((c) => discoveredCoverage(c, v.patientId, now, ctx));
  const [first, ...rest] = response.insurance ?? [];
  const insurance = [
    ...(first ? [{ ...first, coverage: { reference: `#${v.coverage.id}` } }] : []),
    ...others.map((c) => {
      const p = coveragePeriod(c, now);
      return { coverage: { reference: `#${c.id}` }, inforce: v.period.start >= p.start && v.period.end <= p.end, benefitPeriod: { start: p.start, end: p.end } };
    }),
    ...rest,
  ];
  return { ...response, contained: [...(response.contained ?? []), ...contained], insurance };
}

function discoveredCoverage(c: CoverageDef, patientId: string, now: Date, ctx: SandboxContext): Coverage {
  const period = coveragePeriod(c, now);
  const payer = PAYERS.find((p) => p.id === c.payerId);
  const copay = c.benefits.find((b) => b.category === "3")?.copayPercent ?? c.benefits[0]?.copayPercent;
  return {
    resourceType: "Coverage",
    id: c.id,
    identifier: [{ system: `${ctx.baseUrl()}/memberid/${c.payerId}`, value: c.memberId ?? c.id }],
    status: "active",
    type: { coding: [{ system: nphies.SYSTEMS.coverageType, code: "EHCPOL" }] },
    beneficiary: { reference: `Patient/${patientId}` },
    relationship: { coding: [{ system: nphies.SYSTEMS.subscriberRelationship, code: "self" }] },
    period: { start: period.start, end: period.end },
    payor: [{ reference: `Organization/${c.payerId}`, ...(payer ? { display: payer.name.en } : {}) }],
    class: [
      { type: { coding: [{ system: CLASS_SYSTEM, code: "plan" }] }, value: c.plan, name: c.plan },
      ...(c.coverageClass ? [{ type: { coding: [{ system: CLASS_SYSTEM, code: "class" }] }, value: c.coverageClass, name: c.coverageClass }] : []),
    ],
    ...(c.network ? { network: c.network } : {}),
    ...(copay !== undefined ? { costToBeneficiary: [{ type: { coding: [{ system: COPAY_SYSTEM, code: "copaypct" }] }, valueQuantity: { value: copay, unit: "%", system: "http://unitsofmeasure.org", code: "%" } }] } : {}),
  };
}

const CLASS_SYSTEM = "http://terminology.hl7.org/CodeSystem/coverage-class";
const COPAY_SYSTEM = "http://terminology.hl7.org/CodeSystem/coverage-copay-type";

function createClaim(body: Record<string, unknown>, providerOrgId: string, ctx: SandboxContext): Reply {
  // Every receipt of a business identifier is counted (GET /_admin/claims), valid or not.
  const identifier = Array.isArray(body.identifier) ? (body.identifier[0] as Record<string, unknown> | undefined) : undefined;
  const idValue = typeof identifier?.value === "string" ? identifier.value : undefined;
  const idSystem = typeof identifier?.system === "string" ? identifier.system : undefined;
  if (idValue) ctx.store.recordReceipt(providerOrgId, idSystem, idValue, new Date(ctx.clock.now()).toISOString());

  const v = validateClaim(body, ctx.reference, providerOrgId);
  const existing = ctx.store.findByIdentifier(identifierKey(providerOrgId, v.identifier.system, v.identifier.value));
  if (existing) {
    const issue: PlatformIssueInput = {
      code: "ERR-005",
      diagnostics: `Claim.identifier: a submission with identifier '${v.identifier.value}' was already received as Claim/${existing.id} (status ${existing.status})`,
      expression: ["Claim.identifier"],
    };
    const error = ApiError.platform(issue);
    throw new ApiError(error.status, error.issues, { Location: claimLocation(existing, ctx) });
  }
  const record = ctx.engine.submit(v, providerOrgId);
  return fhirReply(record.use === "preauthorization" ? 201 : 202, claimResponseOf(record, ctx), {
    Location: claimLocation(record, ctx),
    ETag: `W/"${record.version}"`,
  });
}

function ownClaim(id: string, providerOrgId: string, ctx: SandboxContext): ClaimRecord | undefined {
  const record = ctx.store.getClaim(id);
  return record && record.providerOrgId === providerOrgId ? record : undefined;
}

function readClaim(id: string, providerOrgId: string, ctx: SandboxContext): Reply {
  const record = ownClaim(id, providerOrgId, ctx);
  if (!record) throw ApiError.plain(404, "not-found", "Claim not found");
  return fhirReply(200, claimView(record), { ETag: `W/"${record.version}"`, "Last-Modified": new Date(record.lastUpdated).toUTCString() });
}

interface DateRange {
  start: number;
  end: number;
}

function parseFhirDateRange(value: string): DateRange | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(start) ? undefined : { start, end: start + 86_400_000 };
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const start = Date.parse(value);
    return Number.isNaN(start) ? undefined : { start, end: start + 1 };
  }
  return undefined;
}

type DateFilter = (created: DateRange) => boolean;

function parseCreatedParam(raw: string): DateFilter {
  const match = /^(eq|ne|ge|gt|le|lt)?(.+)$/.exec(raw);
  const prefix = match?.[1] ?? "eq";
  const range = match?.[2] ? parseFhirDateRange(match[2]) : undefined;
  if (!range) {
    throw ApiError.plain(400, "value", `Search parameter created: '${raw}' is not a date with an optional prefix (e.g. ge2025-01-31)`);
  }
  switch (prefix) {
    case "ge":
      return (c) => c.start >= range.start;
    case "gt":
      return (c) => c.start >= range.end;
    case "le":
      return (c) => c.start < range.end;
    case "lt":
      return (c) => c.start < range.start;
    case "ne":
      return (c) => c.start < range.start || c.start >= range.end;
    default:
      return (c) => c.start >= range.start && c.start < range.end;
  }
}

function searchClaims(url: URL, providerOrgId: string, ctx: SandboxContext): Reply {
  const patientParam = url.searchParams.get("patient");
  if (!patientParam) {
    throw ApiError.platform({ code: "ERR-004", diagnostics: "Missing required search parameter: patient", expression: ["patient"] });
  }
  const patientId = patientParam.startsWith("Patient/") ? patientParam.slice("Patient/".length) : patientParam;
  const check = checkNationalId(patientId, { allowSandboxTestIds: true });
  if (!check.valid) {
    throw ApiError.platform({ code: "ERR-001", diagnostics: `Search parameter patient: invalid national ID / Iqama number (${check.problem})`, expression: ["patient"] });
  }
  const filters = url.searchParams.getAll("created").map(parseCreatedParam);
  const matches = ctx.store
    .allClaims()
    .filter((r) => r.providerOrgId === providerOrgId && r.patientId === check.value)
    .filter((r) => {
      const created = parseFhirDateRange(r.claim.created) ?? parseFhirDateRange(r.claim.created.slice(0, 10));
      return created !== undefined && filters.every((f) => f(created));
    })
    .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
    .map(claimView);
  return fhirReply(200, searchset(ctx.baseUrl(), `${ctx.baseUrl()}${url.pathname}${url.search}`, matches));
}

function searchClaimResponses(url: URL, providerOrgId: string, ctx: SandboxContext): Reply {
  const requestParam = url.searchParams.get("request");
  if (!requestParam) {
    throw ApiError.platform({ code: "ERR-004", diagnostics: "Missing required search parameter: request", expression: ["request"] });
  }
  const claimId = parseReference(requestParam, "Claim")?.id ?? requestParam;
  const record = ownClaim(claimId, providerOrgId, ctx);
  const responses = record ? [claimResponseOf(record, ctx)] : [];
  return fhirReply(200, searchset(ctx.baseUrl(), `${ctx.baseUrl()}${url.pathname}${url.search}`, responses));
}

import { z } from "zod";
import { schemaComponents } from "@/lib/api";
import { ApiClaimAcknowledgementSchema } from "@/lib/submissions";
import {
  ClaimSchema,
  CoverageEligibilityRequestSchema,
  CoverageEligibilityResponseSchema,
  IdentifierSchema,
  MetaSchema,
  OperationOutcomeSchema,
  PeriodSchema,
  ReferenceSchema,
} from "@/lib/fhir";
import type { ProviderApiConfig } from "./config";
import { CancelParametersSchema } from "./claims";
import { EvidenceParametersSchema, EvidenceSentSchema } from "./changes";
import { VisitListAnswerSchema, VisitListBodySchema, VisitListStatusSchema } from "@/lib/visits";
import { PrescriptionAppealSchema, PrescriptionBodySchema } from "./prescriptions";

/** The Coverage `GET /api/exchange/coverage/{id}` answers. */
export const CoverageAnswerSchema = z.object({
  resourceType: z.literal("Coverage"),
  id: z.string(),
  meta: MetaSchema.optional(),
  identifier: z.array(IdentifierSchema).optional(),
  status: z.enum(["active", "cancelled"]),
  subscriberId: z.string().optional(),
  beneficiary: ReferenceSchema,
  payor: z.array(ReferenceSchema).min(1),
  period: PeriodSchema.optional(),
});

/** The Parameters `GET /api/exchange/claims/{id}/status` answers (docs/decisions/020). */
export const StatusParametersSchema = z.object({
  resourceType: z.literal("Parameters"),
  id: z.string(),
  parameter: z.array(
    z.looseObject({
      name: z.string(),
      part: z.array(z.looseObject({ name: z.string() })).optional(),
      resource: z.looseObject({ resourceType: z.string() }).optional(),
    }),
  ),
});

/**
 * The zod schema of every body the document names: requests are read liberally (`input`), and
 * openapi.test.ts parses every 2xx answer with the schema its operation documents.
 */
export const EXCHANGE_API_SCHEMAS = {
  OperationOutcome: { schema: OperationOutcomeSchema, io: "input" },
  CoverageEligibilityRequest: { schema: CoverageEligibilityRequestSchema, io: "input" },
  CoverageEligibilityResponse: { schema: CoverageEligibilityResponseSchema, io: "input" },
  Coverage: { schema: CoverageAnswerSchema, io: "input" },
  Claim: { schema: ClaimSchema, io: "input" },
  ClaimResponse: { schema: ApiClaimAcknowledgementSchema, io: "input" },
  Parameters: { schema: StatusParametersSchema, io: "input" },
  CancelParameters: { schema: CancelParametersSchema, io: "input" },
  EvidenceParameters: { schema: EvidenceParametersSchema, io: "input" },
  EvidenceSent: { schema: EvidenceSentSchema, io: "input" },
  VisitList: { schema: VisitListBodySchema, io: "input" },
  VisitListAnswer: { schema: VisitListAnswerSchema, io: "input" },
  VisitListStatus: { schema: VisitListStatusSchema, io: "input" },
  Prescription: { schema: PrescriptionBodySchema, io: "input" },
  PrescriptionAppeal: { schema: PrescriptionAppealSchema, io: "input" },
} as const satisfies Record<string, { schema: z.ZodType; io: "input" | "output" }>;

/**
 * The OpenAPI 3.1 description of /api/exchange, served at GET /api/exchange/openapi.json.
 * Its schemas are generated from zod (EXCHANGE_API_SCHEMAS); openapi.test.ts walks it, calls every
 * path and method, checks the statuses are documented and parses each answer with its schema.
 */

const FHIR = "application/fhir+json";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const fhirContent = (schema: string) => ({ [FHIR]: { schema: ref(schema) } });

function problem(description: string, extraHeaders: Record<string, unknown> = {}) {
  return {
    description,
    headers: { "X-Request-ID": { $ref: "#/components/headers/X-Request-ID" }, ...extraHeaders },
    content: fhirContent("OperationOutcome"),
  };
}

const rateHeaders = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
  "X-Request-ID": { $ref: "#/components/headers/X-Request-ID" },
};

const common = {
  "401": { $ref: "#/components/responses/Unauthorized" },
  "429": { $ref: "#/components/responses/TooManyRequests" },
  "500": { $ref: "#/components/responses/InternalError" },
};

const platformFailures = {
  "502": problem("The platform answered with something unexpected."),
  "503": problem("The platform is unavailable; retry after `Retry-After` seconds.", { "Retry-After": { schema: { type: "integer" } } }),
};

const bodyProblems = {
  "400": problem("Malformed input: not JSON, wrong resourceType, wrong type or format. `issue.expression` names the field."),
  "413": problem("The body is larger than the limit."),
  "415": problem("Content-Type is not application/fhir+json (application/json is accepted too)."),
  "422": problem("Valid JSON but an invalid resource: missing required fields (ERR-004), another provider, an unsupported `use`. `issue.expression` names the field."),
};

export function openApiDocument(config: Pick<ProviderApiConfig, "portalUrl" | "audience" | "ratePerMinute" | "providerOrgId">): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Clinic Exchange — provider-side exchange API",
      version: "1.0.0",
      description: [
        "The clinic's own systems (HIS, lab, pharmacy) reach the national platform through the portal.",
        "Bodies are FHIR R4 JSON (`application/fhir+json`); every error is an OperationOutcome.",
        `Every request carries \`Authorization: Bearer <JWT>\` signed with the organization's private key (RS256 or ES256): iss = sub = the org client id, aud = \`${config.audience}\`, iat, exp (at most 300 s after iat), a unique jti, kid = the registered key id.`,
        `Rate limit: ${config.ratePerMinute} requests per minute per organization (429 with Retry-After).`,
      ].join("\n\n"),
    },
    servers: [{ url: config.portalUrl }],
    security: [{ organizationJwt: [] }],
    paths: {
      "/api/exchange/eligibility/check": {
        post: {
          operationId: "checkEligibility",
          summary: "Check eligibility with the platform",
          description: `provider is set to Organization/${config.providerOrgId} when absent and refused when it names another organization. Platform refusals keep the platform's code (ERR-001…005) and HTTP status.`,
          requestBody: { required: true, content: fhirContent("CoverageEligibilityRequest") },
          responses: {
            "200": { description: "The platform's answer.", headers: rateHeaders, content: fhirContent("CoverageEligibilityResponse") },
            ...bodyProblems,
            "404": problem("The platform found no coverage (ERR-002)."),
            "409": problem("Refused by the platform as a duplicate (ERR-005)."),
            ...common,
            ...platformFailures,
          },
        },
      },
      "/api/exchange/coverage/{id}": {
        get: {
          operationId: "verifyCoverage",
          summary: "Verify a coverage with the platform",
          description: "`id` is the portal's coverage record id (UUID) or the platform's Coverage id. The portal sends an eligibility check (purpose validation, today) and answers a Coverage whose status is active when in force, cancelled otherwise.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "The verified coverage.", headers: rateHeaders, content: fhirContent("Coverage") },
            "400": problem("The platform refused the check (e.g. ERR-001)."),
            "404": problem("Unknown coverage (or ERR-002 from the platform)."),
            "422": problem("The platform refused the check (ERR-003/ERR-004)."),
            ...common,
            ...platformFailures,
          },
        },
      },
      "/api/exchange/claims/submit": {
        post: {
          operationId: "submitClaim",
          summary: "Queue a claim or prior-authorization request",
          description:
            "The Claim (use claim or preauthorization) is stored and sent by the portal's outbox. Claim.identifier (your system + value) is required and makes the call idempotent: the same client sending the same identifier again gets the existing submission (`X-Idempotent-Replay: true`). The care setting (decision 083): `type` is one of institutional, professional, oral, pharmacy, vision (claim-type); `subType` (claim-subtype ip, op, emr) must be one that setting takes; lines are coded in the setting's code systems or CPT; oral-health lines name the tooth in `item.bodySite` (fdi-oral-region); `careTeam[].provider` names a Practitioner; a misfit is answered 422 naming the element.",
          requestBody: { required: true, content: fhirContent("Claim") },
          responses: {
            "202": {
              description: "Accepted: a ClaimResponse with outcome `queued` (or the current outcome of an existing submission). `Location` is the status URL.",
              headers: { ...rateHeaders, Location: { schema: { type: "string" }, description: "/api/exchange/claims/{id}/status" }, "X-Idempotent-Replay": { schema: { type: "string", enum: ["true"] } } },
              content: fhirContent("ClaimResponse"),
            },
            ...bodyProblems,
            ...common,
          },
        },
      },
      "/api/exchange/claims/{id}/status": {
        get: {
          operationId: "claimStatus",
          summary: "Status of a submission",
          description: "A Parameters resource: submission, use, status (portal status), outcome, identifier, clientIdentifier, platformClaim, created, updated, attempts, one `event` per timeline entry (at, from, to, source, code, httpStatus, note — e.g. informationRequested, cancelRefused — and cancelReason), one `informationRequest` per payer's information request (id, state open | answered | acknowledged, asks, document, due, overdue, received, answered, acknowledged), `errors` (OperationOutcome) when rejected or failed, `claimResponse` once adjudicated. Status `cancelled`: the platform confirmed a cancel or nullify Task. Only the calling organization's submissions exist for it.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": { description: "The current status.", headers: rateHeaders, content: fhirContent("Parameters") },
            "404": problem("No such submission for this organization."),
            ...common,
          },
        },
      },
      "/api/exchange/claims/{id}/cancel": {
        post: {
          operationId: "cancelClaim",
          summary: "Cancel or nullify a submission on the platform",
          description:
            "Sends the platform a cancel Task (an authorization, or a claim still in process) or a nullify Task (a decided claim) with the exchange's reason: WI (wrong information), NP (service not performed), TAS (transaction already submitted), SU (service unavailable), resubmission. The submission must be at the platform (sent, pended, complete or partial). 200: the platform completed it; the answer is the status Parameters with status `cancelled`.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: { required: true, content: fhirContent("CancelParameters") },
          responses: {
            "200": { description: "Cancelled: the current status.", headers: rateHeaders, content: fhirContent("Parameters") },
            ...bodyProblems,
            "404": problem("No such submission for this organization."),
            "409": problem("Not cancellable in its status (not_cancellable), or the platform refused (cancel_refused, with the platform's words; the refusal is on the timeline)."),
            ...common,
            "502": problem("The platform did not answer; nothing changed and it is safe to send again."),
          },
        },
      },
      "/api/exchange/claims/{id}/change": {
        post: {
          operationId: "changeAuthorization",
          summary: "Change a decided prior authorization (a new version)",
          description:
            "Decision 114 (guide v2.7 Table 37): extend a prior authorization, add or remove services, or ask again for what was cut or refused. The body is the whole new request — a Claim with use `preauthorization`, every service (those already performed too), its own `identifier`, the visit's Minimum Data Set in messaging — without `related`: the portal names the version it changes (related, relationship prior, by its business identifier) and keeps its `insurance.preAuthRef`. Only the current approved version can be changed, and not while an earlier change is still with the payer. 202: stored and queued like any submission; follow its /status. Once the payer approves it, it overrides the earlier version.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: { required: true, content: fhirContent("Claim") },
          responses: {
            "202": { description: "Accepted and queued: a ClaimResponse with outcome queued naming the new version.", headers: rateHeaders, content: fhirContent("ClaimResponse") },
            ...bodyProblems,
            "404": problem("No such submission for this organization."),
            "409": problem("Not an authorization (not_an_authorization), or not the current approved version / a change still with the payer (not_changeable)."),
            "422": problem("The body does not fit a change, naming the element: `Claim.use` (must be preauthorization), `Claim.related` (leave it out), `Claim.insurance[n].preAuthRef` (must be the authorization's own), or any rule of a new request."),
            ...common,
          },
        },
      },
      "/api/exchange/claims/{id}/evidence": {
        post: {
          operationId: "sendEvidence",
          summary: "Send the payer information about a claim or authorization, unasked",
          description:
            "Decision 115 (guide v2.7 7.4.1, 7.4.2.3): a Communication about the submission (by its business identifier) with no CommunicationRequest — typically the report that justifies a cut or refused line; the payer may reissue its decision, which /status then shows. The body is a Parameters resource: `text` (valueString, up to 4000 characters), `attachment` (valueAttachment with base64 `data`, `title`; PDF, JPEG or PNG, 5 files, 10 MB each), `sequence` (valuePositiveInt: a line it concerns, repeatable). Text, files or both. The payer's acknowledgement is recorded on the timeline.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: { required: true, content: fhirContent("EvidenceParameters") },
          responses: {
            "200": { description: "Sent: Parameters `evidence` (its id), `communication` (the Communication's id), `status` sent.", headers: rateHeaders, content: fhirContent("EvidenceSent") },
            ...bodyProblems,
            "404": problem("No such submission for this organization."),
            "409": problem("The payer does not hold it (not sent yet, or cancelled): evidence_not_sendable."),
            "422": problem("A parameter that does not fit, named: `Parameters.parameter[n].name`, `.valueString`, `.valuePositiveInt` (a line of the submission), `.valueAttachment` (type or size), or neither text nor file."),
            ...common,
            "502": problem("The platform did not take it; nothing was sent and it is safe to send again."),
          },
        },
      },
      "/api/exchange/claims/{id}/status-check": {
        post: {
          operationId: "claimStatusCheck",
          summary: "Ask the platform where a submission stands now",
          description:
            "A status check with the platform (a read in REST, a status-check message in the messaging protocol). The answer is the status Parameters plus `statusCheck` (portalBefore, platformStatus, disposition, agree, updated). When the platform knows newer news (a decision the portal had not heard of), the portal takes it and `updated` is true. No body.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": { description: "What the platform says now against what the portal believed.", headers: rateHeaders, content: fhirContent("Parameters") },
            "404": problem("No such submission for this organization."),
            "409": problem("Not at the platform yet (not_sent): follow /status."),
            ...common,
            "502": problem("The platform did not answer the status check."),
          },
        },
      },
      "/api/exchange/visits": {
        post: {
          operationId: "importVisitList",
          summary: "Send a visit list for eligibility ahead of the visit",
          description:
            "The day's or tomorrow's visits (national ID or Iqama, date of service, optional insurer and planned services). Items that break a rule are reported in `problems` by item number (1-based) with the reason in English and Arabic and never stop the others. `run`: \"now\" or a date-time schedules the paced batch check (it runs at a lower priority than checks made at the counter). JSON (application/json).",
          requestBody: { required: true, content: { "application/json": { schema: ref("VisitList") } } },
          responses: {
            "201": {
              description: "Stored: accepted and refused items, and the run when one was asked for. `Location` is the status URL.",
              headers: { ...rateHeaders, Location: { schema: { type: "string" }, description: "/api/exchange/visits/{id}" } },
              content: { "application/json": { schema: ref("VisitListAnswer") } },
            },
            ...bodyProblems,
            ...common,
          },
        },
      },
      "/api/exchange/visits/{id}": {
        get: {
          operationId: "visitListStatus",
          summary: "Runs and verdicts of a visit list",
          description: "Each visit's verdict once checked: in_force, not_in_force, no_coverage, benefit_exhausted, benefit_low, preauth_required, not_registered or platform_error, with the planned service and benefit category behind it.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": { description: "The list's runs and visits.", headers: rateHeaders, content: { "application/json": { schema: ref("VisitListStatus") } } },
            "404": problem("No such visit list."),
            ...common,
          },
        },
      },
      "/api/exchange/prescriptions": {
        post: {
          operationId: "verifyPrescription",
          summary: "Verify a prescription with the payer before it is dispensed",
          description:
            "A prescription (guide 7.11 Prescription Verification): the patient's national ID, the coverage's platform id, the prescriber's licence, the ICD-10-AM diagnoses and each medicine — by the exchange's scientific code, or by GTIN with `absenceReason` (why it has no scientific code) — with strength, dose, frequency (1/d, 2/d, 3/d, 4/d, 1/wk), duration in days, refills asked (0–12) and packs. Sent to the payer as a prescriber-request; the answer (decision per medicine, approved refills, the payer's reference a pharmacy claim names) is read at /api/exchange/prescriptions/{id}. A body that breaks a rule is 422 with each element (`lines[0].absenceReason`, `coverage`, …) and why; nothing is stored.",
          requestBody: { required: true, content: { "application/json": { schema: ref("Prescription") } } },
          responses: {
            "202": {
              description: "Stored and queued for the payer: its id and status. `Location` is where its answer is read.",
              headers: { ...rateHeaders, Location: { schema: { type: "string" }, description: "/api/exchange/prescriptions/{id}" } },
              content: { "application/json": { schema: { type: "object", properties: { id: { type: "string", format: "uuid" }, status: { type: "string" } }, required: ["id", "status"] } } },
            },
            ...bodyProblems,
            ...common,
          },
        },
      },
      "/api/exchange/prescriptions/{id}": {
        get: {
          operationId: "prescriptionAnswer",
          summary: "A prescription and the payer's answer",
          description: "Its status, the payer's reference (`reference`, what a pharmacy claim names in Claim.prescription) and each medicine: what was asked (refillsRequested) and the answer (decision, approvedRefills, reasons).",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": { description: "The prescription and its answer.", headers: rateHeaders, content: { "application/json": { schema: { type: "object" } } } },
            "404": problem("No such prescription."),
            ...common,
          },
        },
      },
      "/api/exchange/prescriptions/{id}/cancel": {
        post: {
          operationId: "cancelPrescription",
          summary: "Cancel a prescription on the platform",
          description:
            "Decision 121 (guide 7.11, Table 40): as a claim's cancel — a cancel Task with the exchange's reason (WI, NP, TAS, SU, resubmission) for the calling organization's prescription at the platform. 200: the platform completed it; the answer is the status Parameters with status `cancelled`.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: { required: true, content: fhirContent("CancelParameters") },
          responses: {
            "200": { description: "Cancelled: the current status.", headers: rateHeaders, content: fhirContent("Parameters") },
            ...bodyProblems,
            "404": problem("No such prescription for this organization."),
            "409": problem("Not cancellable in its status (not_cancellable), or the platform refused (cancel_refused)."),
            ...common,
            "502": problem("The platform did not answer; nothing changed and it is safe to send again."),
          },
        },
      },
      "/api/exchange/prescriptions/{id}/status-check": {
        post: {
          operationId: "prescriptionStatusCheck",
          summary: "Ask the platform where a prescription stands now",
          description: "Decision 121: as a claim's status check — the status Parameters plus `statusCheck` (portalBefore, platformStatus, agree, updated). No body.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": { description: "What the platform says now against what the portal believed.", headers: rateHeaders, content: fhirContent("Parameters") },
            "404": problem("No such prescription for this organization."),
            "409": problem("Not at the platform yet (not_sent): follow /api/exchange/prescriptions/{id}."),
            ...common,
            "502": problem("The platform did not answer the status check."),
          },
        },
      },
      "/api/exchange/prescriptions/{id}/appeal": {
        post: {
          operationId: "appealPrescription",
          summary: "Appeal a partly approved or refused prescription",
          description:
            "Decision 121 (guide 7.11, Table 40): the refused or cut medicines (`sequences`, the line numbers of /api/exchange/prescriptions/{id}), a `justification` and optional `attachments` (title, base64 data; PDF, JPEG or PNG). Sent as a new prescriber request related to this one (prior) with the justification (supportingInfo `info`) and the documents (`attachment`). 202: stored and queued; its answer is read at the Location. JSON (application/json).",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: { required: true, content: { "application/json": { schema: ref("PrescriptionAppeal") } } },
          responses: {
            "202": {
              description: "The appeal, stored and queued: its id and status.",
              headers: { ...rateHeaders, Location: { schema: { type: "string" }, description: "/api/exchange/prescriptions/{appealId}" } },
              content: { "application/json": { schema: { type: "object", properties: { id: { type: "string", format: "uuid" }, status: { type: "string" } }, required: ["id", "status"] } } },
            },
            ...bodyProblems,
            "404": problem("No such prescription for this organization."),
            "409": problem("Not partly approved or refused (not_appealable), or an appeal is still with the payer (already_appealed)."),
            "422": problem("An element that does not fit, named: `sequences` (a line that was not refused or cut), `justification` (10–4000 characters), `attachments[n].data` (type or size)."),
            ...common,
          },
        },
      },
      "/api/exchange/prescriptions/{id}/evidence": {
        post: {
          operationId: "prescriptionEvidence",
          summary: "Send the payer information about a prescription, unasked",
          description: "Decision 121: as a claim's evidence (decision 115) — a Parameters resource with `text`, `attachment` and `sequence`; sent as a Communication about the prescription.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: { required: true, content: fhirContent("EvidenceParameters") },
          responses: {
            "200": { description: "Sent: Parameters `evidence`, `communication`, `status` sent.", headers: rateHeaders, content: fhirContent("EvidenceSent") },
            ...bodyProblems,
            "404": problem("No such prescription for this organization."),
            "409": problem("The payer does not hold it (not sent yet, or cancelled): evidence_not_sendable."),
            "422": problem("A parameter that does not fit, named (`Parameters.parameter[n]…`), or neither text nor file."),
            ...common,
            "502": problem("The platform did not take it; nothing was sent and it is safe to send again."),
          },
        },
      },
      "/api/exchange/openapi.json": {
        get: {
          operationId: "openApi",
          summary: "This document",
          security: [],
          responses: { "200": { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    components: {
      securitySchemes: {
        organizationJwt: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: `A JWT signed with the organization's registered key, RS256 or ES256 only. Claims: iss = sub = org client id, aud = ${config.audience}, iat, exp ≤ iat + 300, jti (single use). Header kid = the registered key id. Failures: 401 with WWW-Authenticate: Bearer error="invalid_token", error_description = missing_token | malformed_token | unsupported_alg | expired | replayed | invalid_token.`,
        },
      },
      headers: {
        "X-Request-ID": { schema: { type: "string", format: "uuid" }, description: "The portal's id of this request (quote it when asking for help)." },
        "RateLimit-Limit": { schema: { type: "integer" } },
        "RateLimit-Remaining": { schema: { type: "integer" } },
      },
      responses: {
        Unauthorized: problem("Missing or invalid JWT.", { "WWW-Authenticate": { schema: { type: "string" }, description: 'Bearer error="invalid_token", error_description="<reason>"' } }),
        TooManyRequests: problem("Over the organization's rate limit (or the platform's).", {
          "Retry-After": { schema: { type: "integer" } },
          "RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
          "RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
        }),
        InternalError: problem("An unexpected failure (never caused by the input); quote X-Request-ID."),
      },
      // Generated from the zod schemas above (lib/api/openapi.ts, docs/decisions/033).
      schemas: schemaComponents(EXCHANGE_API_SCHEMAS),
    },
  };
}

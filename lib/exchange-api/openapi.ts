import { z } from "zod";
import { schemaComponents } from "@/lib/api";
import { ApiClaimAcknowledgementSchema } from "@/lib/pipeline";
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
import type { ExchangeApiConfig } from "./config";
import { CancelParametersSchema } from "./claims";
import { VisitListAnswerSchema, VisitListBodySchema, VisitListStatusSchema } from "@/lib/visits";

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
  VisitList: { schema: VisitListBodySchema, io: "input" },
  VisitListAnswer: { schema: VisitListAnswerSchema, io: "input" },
  VisitListStatus: { schema: VisitListStatusSchema, io: "input" },
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

export function openApiDocument(config: Pick<ExchangeApiConfig, "portalUrl" | "audience" | "ratePerMinute" | "providerOrgId">): Record<string, unknown> {
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

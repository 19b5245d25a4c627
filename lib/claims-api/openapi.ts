import { SUBMISSION_STATUSES } from "@/lib/db/schema";
import { CLAIMS_API_ERROR_CODES, CLAIMS_API_REASONS } from "./errors";
import { DEFAULT_LIMIT, MAX_LIMIT } from "./params";

const money = {
  type: ["object", "null"],
  required: ["value", "currency"],
  additionalProperties: false,
  properties: {
    value: { type: "string", pattern: "^-?\\d+\\.\\d{2}$", description: "Exact decimal amount, two decimals (e.g. \"250.00\")." },
    currency: { type: "string", description: "ISO 4217 code, e.g. SAR." },
  },
} as const;

const nullableDateTime = { type: ["string", "null"], format: "date-time" } as const;

const errorSchema = {
  type: "object",
  required: ["error", "message"],
  properties: {
    error: { type: "string", enum: CLAIMS_API_ERROR_CODES, description: "The portal's error catalogue code (docs/decisions/031); decides the status." },
    reason: { type: "string", enum: Object.keys(CLAIMS_API_REASONS), description: "The finer, stable reason." },
    message: { type: "string" },
    parameter: { type: "string", description: "The query parameter at fault (invalid_parameter, credentials_in_url)." },
  },
} as const;

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** The OpenAPI 3.1 description of the generic claims API, served at GET /v1/openapi.json. */
export function openApiDocument(serverUrl = "/"): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Clinic Exchange — generic claims API",
      version: "1.0.0",
      description:
        "Read-only access to the clinic's claims for reporting tools and partners. Authenticate with an API key (X-API-Key header; never in the URL) or an OAuth 2.0 client-credentials access token (Authorization: Bearer). Keys and clients belong to one environment (sandbox or production).",
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }, { oauth2: ["claims:read"] }],
    paths: {
      "/v1/claims": {
        get: {
          operationId: "listClaims",
          summary: "The clinic's claims, newest first",
          description: "Keyset pagination: pass next_cursor back as cursor until has_more is false. Pages are stable under new claims.",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
            { name: "cursor", in: "query", schema: { type: "string" }, description: "Opaque; next_cursor of the previous page." },
            {
              name: "status",
              in: "query",
              schema: { type: "string" },
              description: `One status or a comma-separated list of: ${SUBMISSION_STATUSES.join(", ")}.`,
              example: "complete,partial",
            },
            { name: "patient", in: "query", schema: { type: "string", pattern: "^[A-Za-z0-9.-]{1,64}$" }, description: "The patient's national ID." },
            {
              name: "created_gte",
              in: "query",
              schema: { type: "string" },
              description: "Created at or after: YYYY-MM-DD (start of that day, UTC) or a date-time with zone.",
            },
            { name: "created_lt", in: "query", schema: { type: "string" }, description: "Created before: YYYY-MM-DD (UTC) or a date-time with zone." },
          ],
          responses: {
            "200": {
              description: "A page of claims.",
              headers: {
                "RateLimit-Limit": { schema: { type: "integer" } },
                "RateLimit-Remaining": { schema: { type: "integer" } },
              },
              content: { "application/json": { schema: { $ref: "#/components/schemas/ClaimPage" } } },
            },
            "400": errorResponse("invalid_request; reason invalid_parameter (names the parameter), credentials_in_url or ambiguous_credentials."),
            "401": errorResponse("unauthenticated; reason unauthorized, invalid_api_key, api_key_revoked, key_wrong_environment or invalid_token.", {
              "WWW-Authenticate": { schema: { type: "string" }, description: "RFC 6750 challenge for bearer tokens." },
            }),
            "403": errorResponse("forbidden; reason insufficient_scope: the key or token lacks claims:read."),
            "429": errorResponse("rate_limited.", { "Retry-After": { schema: { type: "integer" }, description: "Seconds." } }),
          },
        },
      },
      "/oauth/token": {
        post: {
          operationId: "token",
          summary: "OAuth 2.0 client credentials token (RFC 6749 §4.4)",
          security: [],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["grant_type"],
                  properties: {
                    grant_type: { type: "string", const: "client_credentials" },
                    client_id: { type: "string", description: "Unless HTTP Basic is used (never both)." },
                    client_secret: { type: "string", description: "Unless HTTP Basic is used (never both)." },
                    scope: { type: "string", description: "Space-separated; defaults to every scope the client holds." },
                  },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "An access token (opaque; 3600 s).",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["access_token", "token_type", "expires_in", "scope"],
                    properties: {
                      access_token: { type: "string" },
                      token_type: { type: "string", const: "Bearer" },
                      expires_in: { type: "integer", const: 3600 },
                      scope: { type: "string" },
                    },
                  },
                },
              },
            },
            "400": { description: "invalid_request, unsupported_grant_type, invalid_scope (RFC 6749 §5.2)." },
            "401": { description: "invalid_client; WWW-Authenticate: Basic when HTTP Basic was used." },
            "429": { description: "rate_limited." },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        oauth2: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: { "claims:read": "Read the clinic's claims" } } } },
      },
      schemas: {
        Money: money,
        Claim: {
          type: "object",
          additionalProperties: false,
          required: ["id", "identifier", "status", "use", "patient", "insurer", "created", "submitted_at", "decided_at", "total", "benefit", "patient_share", "payment", "platform_id"],
          properties: {
            id: { type: "string", format: "uuid" },
            identifier: { type: ["string", "null"], description: "Claim.identifier value (fixed when queued)." },
            status: { type: "string", enum: [...SUBMISSION_STATUSES] },
            use: { type: "string", const: "claim" },
            patient: { type: "string", description: "The patient's national ID." },
            insurer: { type: ["string", "null"] },
            created: { type: "string", format: "date-time" },
            submitted_at: nullableDateTime,
            decided_at: nullableDateTime,
            total: { $ref: "#/components/schemas/Money" },
            benefit: { $ref: "#/components/schemas/Money", description: "What the insurer pays (ClaimResponse total 'benefit')." },
            patient_share: { $ref: "#/components/schemas/Money", description: "The patient's share (ClaimResponse total 'copay')." },
            payment: {
              type: ["object", "null"],
              required: ["date", "amount"],
              additionalProperties: false,
              properties: { date: { type: ["string", "null"], format: "date" }, amount: { $ref: "#/components/schemas/Money" } },
            },
            platform_id: { type: ["string", "null"] },
          },
        },
        ClaimPage: {
          type: "object",
          additionalProperties: false,
          required: ["data", "next_cursor", "has_more"],
          properties: {
            data: { type: "array", items: { $ref: "#/components/schemas/Claim" } },
            next_cursor: { type: ["string", "null"] },
            has_more: { type: "boolean" },
          },
        },
        Error: errorSchema,
      },
    },
  };
}

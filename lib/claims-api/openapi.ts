import { SUBMISSION_STATUSES } from "@/lib/db";
import { z } from "zod";
import { OAuthErrorBodySchema, errorBodySchema, jsonSchemaOf, schemaComponents } from "@/lib/api";
import { TOKEN_LIFETIME_SECONDS } from "@/lib/api-access";
import { CLAIMS_API_ERROR_CODES, CLAIMS_API_REASONS } from "./errors";
import { ApiClaimSchema, ApiMoneySchema, ClaimPageSchema } from "./serialize";

/** The body of POST /oauth/token (RFC 6749 §4.4). */
export const TokenRequestSchema = z.object({
  grant_type: z.literal("client_credentials"),
  client_id: z.string().optional().meta({ description: "Unless HTTP Basic is used (never both)." }),
  client_secret: z.string().optional().meta({ description: "Unless HTTP Basic is used (never both)." }),
  scope: z.string().optional().meta({ description: "Space-separated; defaults to every scope the client holds." }),
});

/** The answer of POST /oauth/token. */
export const TokenResponseSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.literal(TOKEN_LIFETIME_SECONDS),
  scope: z.string(),
});

/** Every body the /v1 document names; claims-api.test.ts parses the served answers with them. */
export const CLAIMS_API_SCHEMAS = {
  Money: { schema: ApiMoneySchema, io: "output" },
  Claim: { schema: ApiClaimSchema, io: "output" },
  ClaimPage: { schema: ClaimPageSchema, io: "output" },
  Error: { schema: errorBodySchema(CLAIMS_API_ERROR_CODES, Object.keys(CLAIMS_API_REASONS)), io: "output" },
  TokenResponse: { schema: TokenResponseSchema, io: "output" },
  OAuthError: { schema: OAuthErrorBodySchema, io: "output" },
} as const satisfies Record<string, { schema: z.ZodType; io: "input" | "output" }>;

import { DEFAULT_LIMIT, MAX_LIMIT } from "./params";

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const oauthError = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/OAuthError" } } } });

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
              "application/x-www-form-urlencoded": { schema: jsonSchemaOf(TokenRequestSchema, "input") },
            },
          },
          responses: {
            "200": {
              description: "An access token (opaque; 3600 s).",
              content: { "application/json": { schema: { $ref: "#/components/schemas/TokenResponse" } } },
            },
            "400": oauthError("invalid_request, unsupported_grant_type, invalid_scope (RFC 6749 §5.2)."),
            "401": oauthError("invalid_client; WWW-Authenticate: Basic when HTTP Basic was used."),
            "413": oauthError("invalid_request: the body is over the limit."),
            "429": oauthError("rate_limited."),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        oauth2: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: { "claims:read": "Read the clinic's claims" } } } },
      },
      // Generated from the zod schemas above (lib/api/openapi.ts, docs/decisions/033).
      schemas: schemaComponents(CLAIMS_API_SCHEMAS),
    },
  };
}

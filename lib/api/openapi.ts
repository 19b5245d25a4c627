import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";

/*
 * OpenAPI documents are generated from the zod schemas the handlers parse and answer with
 * (zod 4's `z.toJSONSchema`, JSON Schema 2020-12 = OpenAPI 3.1): a schema changed in code is a
 * schema changed in the document (docs/decisions/033-openapi-from-zod.md). The operations around
 * them (paths, statuses, headers) are written next to each API and checked by its drift test.
 */

/**
 * A zod schema as an OpenAPI 3.1 schema object. `input` (requests, and FHIR resources we read
 * liberally) leaves unknown members open; `output` (our own JSON answers) closes them.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

/** Named zod schemas → `components.schemas`. */
export function schemaComponents(schemas: Record<string, { schema: z.ZodType; io: "input" | "output" }>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries(schemas).map(([name, { schema, io }]) => [name, jsonSchemaOf(schema, io)]));
}

/** The catalogue's JSON error body (style `json`), limited to the codes an API answers with. */
export function errorBodySchema(codes: readonly ErrorCode[] = ERROR_CODES, reasons?: readonly string[]) {
  return z
    .object({
      error: z.enum(codes as [ErrorCode, ...ErrorCode[]]).meta({ description: "The portal's error catalogue code (docs/decisions/031); decides the HTTP status." }),
      message: z.string().meta({ description: "What went wrong and what to fix, for a person." }),
      reason: (reasons?.length ? z.enum(reasons as [string, ...string[]]) : z.string()).optional().meta({ description: "A finer, stable reason." }),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional().meta({ description: "One entry per field at fault." }),
      parameter: z.string().optional().meta({ description: "The query parameter at fault." }),
      valid: z.array(z.string()).optional().meta({ description: "The accepted values (unknown agent or task)." }),
      maxBytes: z.number().int().optional(),
      retryAfterSeconds: z.number().int().optional(),
      requestId: z.string().optional(),
    })
    .meta({ description: "An error answer (JSON style of the error catalogue)." });
}

/** RFC 6749 §5.2 error body (style `oauth`). */
export const OAuthErrorBodySchema = z.object({
  error: z.enum(["invalid_request", "invalid_client", "unsupported_grant_type", "invalid_scope", "rate_limited", "server_error", "temporarily_unavailable", "unauthorized_client"]),
  error_description: z.string(),
});

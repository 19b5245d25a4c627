import type { OperationOutcomeIssue } from "@medplum/fhirtypes";
import type { z } from "zod";
import { AppError, type FieldIssue } from "@/lib/errors";
import { platformIssue } from "@/lib/fhir";

/**
 * Turns a zod failure on a FHIR resource into an AppError that names each field (FHIRPath such as
 * `CoverageEligibilityRequest.patient`): missing required elements → 422 `unprocessable` with
 * ERR-004 ("Missing required field"); wrong types or formats → 400 `invalid_request`. Claims go
 * through lib/pipeline's validateApiClaim, which follows the same rule.
 */
export function parseResource<S extends z.ZodType>(schema: S, body: Record<string, unknown>, resourceType: string): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues: OperationOutcomeIssue[] = [];
  const fields: FieldIssue[] = [];
  let missingOnly = true;
  for (const issue of result.error.issues.slice(0, 20)) {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const expression = fhirPath(resourceType, path);
    const missing = issue.code === "invalid_type" && valueAt(body, path) === undefined;
    fields.push({ path: expression, message: missing ? "required" : issue.message });
    if (missing) {
      issues.push(platformIssue({ code: "ERR-004", diagnostics: `${expression}: required`, expression: [expression] }));
    } else {
      missingOnly = false;
      issues.push({ severity: "error", code: "structure", diagnostics: `${expression}: ${issue.message}`, expression: [expression] });
    }
  }
  throw new AppError(missingOnly ? "unprocessable" : "invalid_request", `The ${resourceType} is not valid.`, { reason: missingOnly ? "missing_field" : "invalid_structure", fields, issues });
}

export function fhirPath(resourceType: string, path: readonly (string | number)[]): string {
  let out = resourceType;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${p}`;
  return out;
}

function valueAt(body: unknown, path: readonly (string | number)[]): unknown {
  let current: unknown = body;
  for (const p of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[p];
  }
  return current;
}

/** `resourceType` must be the expected one (400 otherwise). */
export function expectResourceType(body: Record<string, unknown>, resourceType: string): void {
  if (body.resourceType !== resourceType) {
    throw new AppError("invalid_request", `resourceType must be ${resourceType}.`, { reason: "resource_type", fields: [{ path: "resourceType", message: `must be ${resourceType}` }] });
  }
}

/**
 * The provider of every request is this clinic: filled in when absent, refused (422) when it names
 * another organization.
 */
export function forceProvider(body: Record<string, unknown>, resourceType: string, providerOrgId: string): Record<string, unknown> {
  const expected = `Organization/${providerOrgId}`;
  if (body.provider === undefined) return { ...body, provider: { reference: expected } };
  const given = body.provider as { reference?: unknown } | null;
  if (typeof given !== "object" || given === null || given.reference !== expected) {
    throw new AppError("unprocessable", `${resourceType}.provider must be ${expected} (this clinic) or left out.`, {
      reason: "provider",
      fields: [{ path: `${resourceType}.provider`, message: `must be ${expected} (this clinic) or left out` }],
    });
  }
  return body;
}

import type { OperationOutcome, OperationOutcomeIssue } from "@medplum/fhirtypes";
import { PLATFORM_ERROR_SYSTEM } from "./systems";

/**
 * The platform's error codes (spec, "Errors"). The spec gives meaning and resolution; it does not
 * pair codes with HTTP statuses, so the pairing below is ours (docs/decisions/011-…): the sandbox
 * answers with these statuses and the portal maps answers back with {@link platformErrorFromOutcome}.
 */
export const PLATFORM_ERRORS = {
  "ERR-001": {
    meaning: "Invalid identifier",
    resolution: "Check the patient identifier",
    httpStatus: 400,
    issueCode: "value",
    field: "patient",
  },
  "ERR-002": {
    meaning: "Coverage not found",
    resolution: "Verify the policy",
    httpStatus: 404,
    issueCode: "not-found",
    field: "insurance",
  },
  "ERR-003": {
    meaning: "Invalid code",
    resolution: "Use a valid code",
    httpStatus: 422,
    issueCode: "code-invalid",
    field: undefined,
  },
  "ERR-004": {
    meaning: "Missing required field",
    resolution: "Complete all fields",
    httpStatus: 422,
    issueCode: "required",
    field: undefined,
  },
  "ERR-005": {
    meaning: "Duplicate submission",
    resolution: "Check prior claims",
    // 409 Conflict: the request is well formed and valid but collides with a resource that
    // already exists (same provider + identifier); a retry with the same body will never succeed.
    httpStatus: 409,
    issueCode: "duplicate",
    field: "identifier",
  },
} as const satisfies Record<
  string,
  {
    meaning: string;
    resolution: string;
    httpStatus: number;
    issueCode: OperationOutcomeIssue["code"];
    field: string | undefined;
  }
>;

export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS;

export function isPlatformErrorCode(code: unknown): code is PlatformErrorCode {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(PLATFORM_ERRORS, code);
}

export interface PlatformIssueInput {
  code: PlatformErrorCode;
  diagnostics: string;
  /** FHIRPath of the element concerned, e.g. `Claim.item[0].productOrService`. */
  expression?: string[];
}

/** Builds one OperationOutcome issue carrying a platform error code. */
export function platformIssue(input: PlatformIssueInput): OperationOutcomeIssue {
  const def = PLATFORM_ERRORS[input.code];
  return {
    severity: "error",
    code: def.issueCode,
    details: {
      coding: [{ system: PLATFORM_ERROR_SYSTEM, code: input.code, display: def.meaning }],
      text: def.resolution,
    },
    diagnostics: input.diagnostics,
    ...(input.expression ? { expression: input.expression } : {}),
  };
}

export function operationOutcome(issues: OperationOutcomeIssue[]): OperationOutcome {
  return { resourceType: "OperationOutcome", issue: issues };
}

/** An OperationOutcome issue without a platform code (transport, auth, format problems). */
export function plainIssue(
  code: OperationOutcomeIssue["code"],
  diagnostics: string,
  severity: OperationOutcomeIssue["severity"] = "error",
): OperationOutcomeIssue {
  return { severity, code, diagnostics };
}

export interface PlatformErrorInfo {
  /** Platform code when the outcome carried one. */
  code: PlatformErrorCode | undefined;
  meaning: string | undefined;
  resolution: string | undefined;
  diagnostics: string | undefined;
  expression: string[] | undefined;
}

/** Reads the first error issue of an OperationOutcome (as returned by the platform). */
export function platformErrorFromOutcome(outcome: OperationOutcome): PlatformErrorInfo {
  const issue = outcome.issue.find((i) => i.severity === "error" || i.severity === "fatal") ?? outcome.issue[0];
  const coded = issue?.details?.coding?.find((c) => c.system === PLATFORM_ERROR_SYSTEM && isPlatformErrorCode(c.code));
  const code = coded && isPlatformErrorCode(coded.code) ? coded.code : undefined;
  return {
    code,
    meaning: code ? PLATFORM_ERRORS[code].meaning : undefined,
    resolution: code ? PLATFORM_ERRORS[code].resolution : undefined,
    diagnostics: issue?.diagnostics,
    expression: issue?.expression,
  };
}

import type { OperationOutcome, OperationOutcomeIssue } from "@medplum/fhirtypes";

/**
 * OperationOutcome helpers: the one place the portal builds an error OperationOutcome of its own
 * (the platform's coded ones come from `platformIssue` in ./errors). `statusOf` reads back the
 * HTTP status an outcome stands for, so a FHIR answer and its status cannot disagree.
 */

type IssueCode = OperationOutcomeIssue["code"];

export interface OutcomeOptions {
  /** FHIRPath of the element concerned, e.g. `Claim.item[0].unitPrice`. */
  expression?: string[];
  /** A coded reason (`details.coding`), e.g. the portal's API error code. */
  coding?: { system: string; code: string };
}

function issue(code: IssueCode, diagnostics: string, options: OutcomeOptions = {}): OperationOutcomeIssue {
  return {
    severity: "error",
    code,
    ...(options.coding ? { details: { coding: [{ system: options.coding.system, code: options.coding.code }] } } : {}),
    diagnostics,
    ...(options.expression?.length ? { expression: options.expression } : {}),
  };
}

/** One issue as a whole OperationOutcome. */
export function outcomeOf(code: IssueCode, diagnostics: string, options?: OutcomeOptions): OperationOutcome {
  return { resourceType: "OperationOutcome", issue: [issue(code, diagnostics, options)] };
}

export const badRequest = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("invalid", diagnostics, options);
export const unauthenticated = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("login", diagnostics, options);
export const forbidden = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("forbidden", diagnostics, options);
export const notFound = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("not-found", diagnostics, options);
export const conflict = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("conflict", diagnostics, options);
export const tooLarge = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("too-costly", diagnostics, options);
export const unsupported = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("not-supported", diagnostics, options);
export const unprocessable = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("processing", diagnostics, options);
export const tooMany = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("throttled", diagnostics, options);
export const unavailable = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("transient", diagnostics, options);
export const serverError = (diagnostics: string, options?: OutcomeOptions) => outcomeOf("exception", diagnostics, options);

/** Issue code → the HTTP status it stands for (codes not listed are 400: a fault in the request). */
const STATUS_OF_ISSUE: Partial<Record<IssueCode, number>> = {
  login: 401,
  unknown: 401,
  expired: 401,
  forbidden: 403,
  suppressed: 403,
  security: 403,
  "not-found": 404,
  deleted: 410,
  conflict: 409,
  duplicate: 409,
  "multiple-matches": 409,
  "too-costly": 413,
  "too-long": 400,
  "not-supported": 415,
  processing: 422,
  "business-rule": 422,
  "code-invalid": 422,
  required: 422,
  throttled: 429,
  exception: 500,
  timeout: 504,
  transient: 503,
  "no-store": 503,
  incomplete: 502,
};

/**
 * The HTTP status an OperationOutcome stands for: the status of its first error (or fatal) issue
 * by that issue's code; 200 when it holds no error at all (information and warnings only).
 */
export function statusOf(outcome: OperationOutcome): number {
  const first = outcome.issue.find((i) => i.severity === "error" || i.severity === "fatal");
  if (!first) return 200;
  return STATUS_OF_ISSUE[first.code] ?? 400;
}

import { randomUUID } from "node:crypto";
import type { OperationOutcomeIssue, Resource } from "@medplum/fhirtypes";
import { CODE_SYSTEMS } from "../lib/fhir";
import type { ApiError } from "./http";

/**
 * How the sandbox refuses a readable message with invalid content, as the exchange does
 * (implementation guide, error handling; docs/decisions/072): HTTP 200 and the business answer of
 * the event carrying the errors — a CoverageEligibilityResponse or ClaimResponse with
 * `outcome: error` and `error[]` (code + the error-expression extension naming the element), a
 * Task `rejected` with error outputs — or, for events without a business answer, an
 * OperationOutcome in the reply message. A message that cannot be read at all is answered with a
 * plain OperationOutcome instead (sandbox/routes/messaging.ts).
 */

export const ERROR_EXPRESSION_EXTENSION = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-error-expression";

/** One error as the sandbox reports it: the exchange-style code, the element, words. */
export interface Refusal {
  code: string;
  /** The code system of `code`. */
  system: string;
  expression: string;
  text: string;
  severity: "error" | "warning";
}

type Json = Record<string, unknown>;

/** The sandbox engine's own refusals (ERR-00x, structure …) as refusals naming their element. */
export function refusalsOfApiError(error: ApiError, fallbackSystem: string): Refusal[] {
  return error.issues.map((issue: OperationOutcomeIssue) => {
    const coding = issue.details?.coding?.[0];
    return {
      code: coding?.code ?? issue.code,
      system: coding?.system ?? fallbackSystem,
      expression: issue.expression?.[0] ?? (issue.diagnostics ?? "").split(":")[0] ?? "",
      text: issue.diagnostics ?? issue.details?.text ?? "invalid",
      severity: "error",
    };
  });
}

function errorsOf(refusals: Refusal[]): Json[] {
  return refusals.map((r) => ({
    extension: [{ url: ERROR_EXPRESSION_EXTENSION, valueString: r.expression }],
    code: { coding: [{ system: r.system, code: r.code, display: r.text.slice(0, 250) }] },
  }));
}

const ref = (v: unknown) => (typeof v === "object" && v !== null ? (v as Json) : undefined);

/** The business answer of `event` carrying `refusals`, or an OperationOutcome for events without one. */
export function refusalResource(event: string, focus: Json, refusals: Refusal[], now: string): Resource {
  const identifier = Array.isArray(focus.identifier) ? (focus.identifier as Json[])[0] : undefined;
  const request = identifier ? { type: String(focus.resourceType), identifier } : undefined;
  if (event === "eligibility-request") {
    return {
      resourceType: "CoverageEligibilityResponse",
      id: randomUUID(),
      status: "active",
      purpose: Array.isArray(focus.purpose) && focus.purpose.length ? focus.purpose : ["validation"],
      patient: ref(focus.patient) ?? { display: "unknown" },
      created: now,
      ...(request ? { request } : { request: { display: "unreadable request" } }),
      outcome: "error",
      insurer: ref(focus.insurer) ?? { display: "unknown" },
      error: errorsOf(refusals),
    } as unknown as Resource;
  }
  if (event === "claim-request" || event === "priorauth-request" || event === "prescriber-request") {
    return {
      resourceType: "ClaimResponse",
      id: randomUUID(),
      status: "active",
      type: ref(focus.type) ?? { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] },
      use: focus.use === "claim" ? "claim" : "preauthorization",
      patient: ref(focus.patient) ?? { display: "unknown" },
      created: now,
      insurer: ref(focus.insurer) ?? { display: "unknown" },
      ...(ref(focus.provider) ? { requestor: ref(focus.provider) } : {}),
      ...(request ? { request } : {}),
      outcome: "error",
      error: errorsOf(refusals),
    } as unknown as Resource;
  }
  if (focus.resourceType === "Task") {
    return {
      resourceType: "Task",
      id: randomUUID(),
      status: "rejected",
      intent: "order",
      ...(ref(focus.code) ? { code: ref(focus.code) } : {}),
      ...(ref(focus.focus) ? { focus: ref(focus.focus) } : {}),
      output: refusals.map((r) => ({
        extension: [{ url: ERROR_EXPRESSION_EXTENSION, valueString: r.expression }],
        type: { coding: [{ system: "http://nphies.sa/terminology/CodeSystem/task-output-type", code: "error" }] },
        valueCodeableConcept: { coding: [{ system: r.system, code: r.code, display: r.text.slice(0, 250) }] },
      })),
    } as unknown as Resource;
  }
  return operationOutcome(refusals);
}

export function operationOutcome(refusals: Refusal[]): Resource {
  return {
    resourceType: "OperationOutcome",
    id: randomUUID(),
    issue: refusals.map((r) => ({
      severity: r.severity,
      code: "invalid",
      details: { coding: [{ system: r.system, code: r.code }], text: r.text },
      diagnostics: r.text,
      expression: [r.expression],
    })),
  } as Resource;
}

/** The event a refused request's answer carries. */
export function refusalEvent(event: string): string {
  const answers: Record<string, string> = {
    "eligibility-request": "eligibility-response",
    "claim-request": "claim-response",
    "priorauth-request": "priorauth-response",
    "prescriber-request": "prescriber-response",
    "batch-request": "batch-response",
    "status-check": "status-check-response",
    "cancel-request": "cancel-response",
    "poll-request": "poll-response",
  };
  return answers[event] ?? "acknowledgement";
}

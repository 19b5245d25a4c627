import type { OperationOutcome } from "@medplum/fhirtypes";
import { PLATFORM_ERROR_SYSTEM } from "../systems";
import { type Read } from "./errors";
import { checkStructure } from "./structure";
import { list, readCoded, text, type CodedView } from "./values";

export interface OutcomeIssueView {
  severity: string;
  code: string;
  details?: CodedView;
  /** The platform's error code (ERR-001 …) when the details carry one. */
  platformCode?: string;
  diagnostics?: string;
  expression: string[];
  location: string[];
}

export interface OperationOutcomeView {
  issues: OutcomeIssueView[];
  /** The first error or fatal issue (else the first issue). */
  primary: OutcomeIssueView;
}

/** Reads an OperationOutcome (errors of the platform, or of any R4 server). Throws FhirReadError when not valid R4. */
export function readOperationOutcome(json: unknown): Read<OperationOutcomeView, OperationOutcome> {
  checkStructure(json, "OperationOutcome");
  const r = json as Record<string, unknown>;
  const issues: OutcomeIssueView[] = list(r.issue).map((issue) => {
    const view: OutcomeIssueView = {
      severity: String(issue.severity),
      code: String(issue.code),
      expression: (Array.isArray(issue.expression) ? issue.expression : []).filter((e): e is string => typeof e === "string"),
      location: (Array.isArray(issue.location) ? issue.location : []).filter((e): e is string => typeof e === "string"),
    };
    const details = readCoded(issue.details, PLATFORM_ERROR_SYSTEM);
    if (details) view.details = details;
    const platformCode = details?.system === PLATFORM_ERROR_SYSTEM ? details.code : undefined;
    if (platformCode) view.platformCode = platformCode;
    if (text(issue.diagnostics)) view.diagnostics = issue.diagnostics as string;
    return view;
  });
  const primary = issues.find((i) => i.severity === "error" || i.severity === "fatal") ?? issues[0]!;
  return { view: { issues, primary }, raw: json as OperationOutcome };
}

import type { ClaimResponse, Task, TaskOutput } from "@medplum/fhirtypes";
import { TASK_CODES } from "../nphies/terminology";
import { CLAIM_PROCESSING_STATUSES, NATIONAL_EXCHANGE, type ClaimProcessingStatus } from "../systems";
import { claimReference, clinicTask } from "./communication";

/**
 * The status check as the national exchange does it (decision 073): a Task with code `status`
 * whose focus names the Claim by the clinic's business identifier — the exchange does not need to
 * have told us its own id — answered by the same Task `completed` with the claim's processing
 * status in `Task.output` (type `status`) and, once decided, a `response` output pointing at the
 * ClaimResponse carried in the reply. Shared by the portal (writer, reader) and the sandbox.
 */
export const STATUS_CHECK_TASK_CODE = TASK_CODES.status;
export const STATUS_OUTPUT_TYPE = "status";
export const RESPONSE_OUTPUT_TYPE = "response";

export interface StatusCheckInput {
  id: string;
  identifier: { system?: string; value: string };
  /** The clinic's Organization (an entry of the message). */
  providerOrgId: string;
  /** Who is asked: the payer's Organization entry (by id) or, without one, the payer by its licence. */
  payer: { orgId?: string; license: string };
  authoredOn: Date;
}

export function buildStatusCheckTask(input: StatusCheckInput): Task {
  return {
    ...clinicTask({ ...input, code: STATUS_CHECK_TASK_CODE }),
    focus: claimReference({ identifier: input.identifier }),
    owner: input.payer.orgId ? { reference: `Organization/${input.payer.orgId}` } : { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: input.payer.license } },
  };
}

const outputOf = (code: string, value: Omit<TaskOutput, "type">): TaskOutput => ({
  type: { coding: [{ system: NATIONAL_EXCHANGE.taskOutputTypeSystem, code }] },
  ...value,
} as TaskOutput);

/** The answer to a status check: the asked Task completed with the status (and the ClaimResponse's fullUrl once decided). */
export function answerStatusCheck(task: Task, at: Date, status: ClaimProcessingStatus, responseFullUrl?: string): Task {
  return {
    ...task,
    status: "completed",
    lastModified: at.toISOString(),
    output: [
      outputOf(STATUS_OUTPUT_TYPE, { valueCode: status }),
      ...(responseFullUrl ? [outputOf(RESPONSE_OUTPUT_TYPE, { valueReference: { reference: responseFullUrl, type: "ClaimResponse" } })] : []),
    ],
  };
}

/** The adjudication outcome codes some answers use for the status, as processing statuses. */
const OUTCOME_AS_STATUS: Record<string, ClaimProcessingStatus> = { approved: "complete", rejected: "denied", partial: "partial", pended: "pended" };

export interface StatusCheckAnswer {
  processingStatus?: ClaimProcessingStatus;
  /** The `response` output's reference, when present. */
  responseReference?: string;
  identifier?: { system?: string; value?: string };
}

/** Reads the status (and the reference of the ClaimResponse) from a status-check answer's Task.output. */
export function readStatusCheckAnswer(task: Task): StatusCheckAnswer {
  let processingStatus: ClaimProcessingStatus | undefined;
  let responseReference: string | undefined;
  for (const output of task.output ?? []) {
    const code = output.type?.coding?.find((c) => c.system === undefined || c.system === NATIONAL_EXCHANGE.taskOutputTypeSystem)?.code;
    if (code === STATUS_OUTPUT_TYPE) {
      const value = output.valueCode ?? output.valueCodeableConcept?.coding?.[0]?.code ?? output.valueString;
      if (value && (CLAIM_PROCESSING_STATUSES as readonly string[]).includes(value)) processingStatus = value as ClaimProcessingStatus;
      else if (value && value in OUTCOME_AS_STATUS) processingStatus = OUTCOME_AS_STATUS[value];
    } else if (code === RESPONSE_OUTPUT_TYPE && output.valueReference?.reference) {
      responseReference = output.valueReference.reference;
    }
  }
  const identifier = task.focus?.identifier;
  return { ...(processingStatus ? { processingStatus } : {}), ...(responseReference ? { responseReference } : {}), ...(identifier ? { identifier } : {}) };
}

/** Picks the ClaimResponse a status-check answer names (else the only one it carries). */
export function statusCheckResponse(answer: StatusCheckAnswer, entries: readonly { fullUrl?: string; resource?: Record<string, unknown> }[]): ClaimResponse | undefined {
  const responses = entries.filter((e) => e.resource?.resourceType === "ClaimResponse");
  const named = answer.responseReference ? responses.find((e) => e.fullUrl === answer.responseReference || (e.fullUrl ?? "").endsWith(`/${answer.responseReference}`)) : undefined;
  return (named ?? (responses.length === 1 ? responses[0] : undefined))?.resource as ClaimResponse | undefined;
}

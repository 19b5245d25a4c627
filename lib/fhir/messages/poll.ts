import type { Task, TaskInput } from "@medplum/fhirtypes";
import { MESSAGE_REPLY_EVENTS, NATIONAL_EXCHANGE, type MessageReplyEvent } from "../systems";
import { MessageBuildError } from "./build";
import { NATIONAL_EXCHANGE_TASK_ID_BASE } from "../builders/communication";

/** The exchange hands out at most 100 messages per poll. */
export const MAX_MESSAGES_PER_POLL = 100;
export { MAX_CLAIMS_PER_BATCH } from "./build";

export interface PollRequestInput {
  id: string;
  /** Organization id of the polling facility (the Task's requester, an entry of the message). */
  requesterOrgId: string;
  /** 1…100 (default 100). */
  count?: number;
  include?: MessageReplyEvent[];
  exclude?: MessageReplyEvent[];
  /** Only messages created in this period. */
  period?: { start?: string; end?: string };
  authoredOn: Date;
}

function inputOf(code: string, value: Omit<TaskInput, "type">): TaskInput {
  return { type: { coding: [{ system: NATIONAL_EXCHANGE.taskInputTypeSystem, code }] }, ...value } as TaskInput;
}

/** The poll-request Task (focus of a poll-request message). */
export function buildPollTask(input: PollRequestInput): Task {
  const count = input.count ?? MAX_MESSAGES_PER_POLL;
  if (!Number.isInteger(count) || count < 1 || count > MAX_MESSAGES_PER_POLL) {
    throw new MessageBuildError("Task.input[count]", `must be a whole number from 1 to ${MAX_MESSAGES_PER_POLL}`);
  }
  for (const code of [...(input.include ?? []), ...(input.exclude ?? [])]) {
    if (!(MESSAGE_REPLY_EVENTS as readonly string[]).includes(code)) throw new MessageBuildError("Task.input", `"${code}" is not a message type`);
  }
  const inputs: TaskInput[] = [
    inputOf("count", { valuePositiveInt: count }),
    ...(input.include ?? []).map((code) => inputOf("include-message-type", { valueCode: code })),
    ...(input.exclude ?? []).map((code) => inputOf("exclude-message-type", { valueCode: code })),
  ];
  if (input.period?.start || input.period?.end) inputs.push(inputOf("period", { valuePeriod: { ...input.period } }));
  return {
    resourceType: "Task",
    id: input.id,
    identifier: [{ system: `${NATIONAL_EXCHANGE_TASK_ID_BASE}/${input.requesterOrgId}`, value: input.id }],
    status: "requested",
    intent: "order",
    priority: "routine",
    code: { coding: [{ system: NATIONAL_EXCHANGE.taskCodeSystem, code: "poll" }] },
    authoredOn: input.authoredOn.toISOString(),
    requester: { reference: `Organization/${input.requesterOrgId}` },
    owner: { identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } },
    input: inputs,
  };
}

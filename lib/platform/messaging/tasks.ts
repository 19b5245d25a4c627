import { randomUUID } from "node:crypto";
import type { Communication, Task } from "@medplum/fhirtypes";
import { MAX_MESSAGES_PER_POLL, buildPollTask, entryResourceTexts, readCoverageEligibilityResponse, readResource, type Read } from "@/lib/fhir";
import { PlatformProtocolError } from "../errors";
import { cancelOutcomeOf, type PlatformPort, type PolledMessages } from "../port";
import { idOf, stableUuid, type MessagingCore } from "./core";

const identifierOfTarget = (target: { identifier?: { system?: string; value?: string } } | undefined) =>
  target?.identifier?.value ? { ...(target.identifier.system ? { system: target.identifier.system } : {}), value: target.identifier.value } : undefined;

/**
 * Everything besides claims and status checks: eligibility, the poll, cancel Tasks, the answer to
 * an information request and payment notices. Each names the claim it is about by our identifier
 * (decision 073) and finds the payer through it.
 */
export function taskOperations(core: MessagingCore): Pick<PlatformPort, "checkEligibility" | "pollMessages" | "cancel" | "sendCommunication" | "sendPaymentNotice"> {
  const { deps, clock } = core;

  return {
    async checkEligibility(request, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const destination = await core.destinationFor({ insurer: idOf(request.insurer?.reference, "Organization") }, requestId, "CoverageEligibilityRequest.insurer");
      const identifier = request.identifier?.[0];
      const seed = identifier?.value ? `eligibility|${identifier.system ?? ""}|${identifier.value}` : undefined;
      const focus = { ...request, id: request.id ?? (seed ? stableUuid(`${seed}|resource`) : randomUUID()) };
      // With its parties (patient, coverage, provider, insurer, the site) as profiled entries (decision 075).
      const parties = await deps.parties?.(focus);
      const reply = await core.exchange({ event: "eligibility-request", focus, destination, seed, bucket: "eligibility", ...(parties ? { parties } : {}) }, { ...options, requestId });
      // A discovery's Coverages may come as entries of the reply: read with them (parsed once).
      const read = core.focusOf(reply, "CoverageEligibilityResponse", (json) => readCoverageEligibilityResponse(json, { resources: reply.view.entries.map((e) => e.resource) }));
      return { data: read.raw, view: read.view, status: reply.status, requestId: reply.requestId };
    },

    async pollMessages(options = {}): Promise<PolledMessages> {
      // `pollId` (lib/inbox): the same poll-request, ids and all, when it is sent again after a crash —
      // the exchange answers an exact repeat with the same reply (guide 6.4), so nothing is lost.
      const id = options.pollId ?? randomUUID();
      const task = buildPollTask({ id, requesterOrgId: deps.providerOrgId, count: options.count ?? MAX_MESSAGES_PER_POLL, authoredOn: clock() });
      const reply = await core.exchange({ event: "poll-request", focus: task, resources: [core.provider()], destination: { exchange: true }, bucket: "status", seed: `poll|${id}` }, options);
      // Each message as it arrived: its text cut from the reply's, for the inbox (decision 096).
      const texts = reply.received !== undefined ? entryResourceTexts(reply.received) : [];
      const parts = reply.view.parts.map((part) => {
        const text = texts[part.index];
        return text === undefined ? part : { ...part, text };
      });
      return { messages: reply.view.messages, parts, more: reply.view.queuedMessages, requestId: reply.requestId };
    },

    async cancel(task: Task, options = {}) {
      // Owned by the insurer (an Organization entry named by its payer licence); focus by our identifier.
      const requestId = options.requestId ?? randomUUID();
      const claimIdentifier = identifierOfTarget(task.focus);
      const claimId = idOf(task.focus?.reference, "Claim");
      const destination = await core.destinationFor({ ...(claimIdentifier ? { claimIdentifier } : {}), ...(claimId ? { claimId } : {}) }, requestId, "Task.focus");
      const payer = await core.payer(destination.payerLicense!, idOf(task.owner?.reference, "Organization"));
      const focus: Task = { ...task, owner: { reference: `Organization/${payer.id}` } };
      const reply = await core.exchange({ event: "cancel-request", focus, resources: [core.provider(), payer], destination, bucket: "claims" }, { ...options, requestId });
      const read = core.focusOf<Read<{ notes: string[] }, Task>>(reply, "Task", (json) => readResource<Task>(json, "Task"));
      return { data: read.raw, status: reply.status, requestId: reply.requestId, outcome: cancelOutcomeOf(read.raw) };
    },

    async sendCommunication(communication, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const about = communication.about ?? [];
      const claimIdentifier = about.map(identifierOfTarget).find(Boolean);
      const claimId = about.map((a) => idOf(a.reference, "Claim")).find(Boolean);
      const destination = await core.destinationFor({ ...(claimIdentifier ? { claimIdentifier } : {}), ...(claimId ? { claimId } : {}) }, requestId, "Communication.about");
      // The exchange's Communication names its patient and is addressed to the payer: the claim's
      // parties go as entries of the message (decision 074), the subject and recipient name them.
      const claim = claimIdentifier ? await deps.claimByIdentifier?.(claimIdentifier) : claimId ? (await deps.sentClaim?.(claimId))?.claim : undefined;
      const parties = claim ? await deps.parties?.(claim) : undefined;
      const focus: Communication = parties
        ? {
            ...communication,
            subject: communication.subject ?? { reference: `Patient/${parties.patient.id}` },
            recipient: communication.recipient?.length ? communication.recipient : [{ reference: `Organization/${parties.insurer.id}` }],
          }
        : communication;
      const reply = await core.exchange({ event: "communication", focus, resources: [core.provider()], destination, bucket: "claims", ...(parties ? { parties } : {}) }, { ...options, requestId });
      // The exchange's receipt (acknowledgement): the payer's own acknowledgement comes later, by poll.
      const echoed = reply.view.entries.find((e) => e.resourceType === "Communication")?.resource;
      const data = echoed ?? (reply.data as unknown as Record<string, unknown>);
      const platformId = typeof echoed?.id === "string" ? echoed.id : communication.id;
      return { data, status: reply.status, requestId: reply.requestId, ...(platformId ? { platformId } : {}) };
    },

    async sendPaymentNotice(notice, options = {}) {
      // Addressed to the exchange; the id is fixed per remittance and status, so a resend is the same message.
      const seed = `payment-notice|${notice.id ?? randomUUID()}`;
      // With the clinic's Organization the notice names as provider and payee (an entry of the message).
      const reply = await core.exchange({ event: "payment-notice", focus: notice, resources: [core.provider()], destination: { exchange: true }, seed, bucket: "claims" }, options);
      if (reply.view.header.responseTo !== reply.headerId) {
        throw new PlatformProtocolError({ status: reply.status, requestId: reply.requestId, message: "POST /$process-message: the payment notice was not acknowledged", problems: ["MessageHeader.response"] });
      }
      return { status: reply.status, requestId: reply.requestId, data: reply.data as unknown as Record<string, unknown> };
    },
  };
}

import { createHash, randomUUID } from "node:crypto";
import type { Bundle, Claim, ClaimResponse, Communication, CoverageEligibilityRequest, Organization, Resource, Task } from "@medplum/fhirtypes";
import {
  NATIONAL_EXCHANGE,
  PORTAL_URI_BASE,
  MessageBuildError,
  MessageTooLargeError,
  answersRequest,
  buildMessage,
  buildPollTask,
  claimProcessingStatus,
  isFhirReadError,
  readClaimResponse,
  readCoverageEligibilityResponse,
  readResource,
  referenceId,
  MAX_MESSAGES_PER_POLL,
  type MessageDestination,
  type MessageRequestEvent,
  type MessageView,
  type Read,
} from "@/lib/fhir";
import type { CallOptions, PlatformClient, PlatformResult } from "./client";
import { PlatformError, PlatformProtocolError, PlatformUnavailableError, type RateBucket } from "./errors";
import type { PayerLicenseResolver } from "./payer-license";
import { cancelOutcomeOf, type PlatformPort, type PolledMessages } from "./port";

/**
 * The messaging adapter of the platform port (issue 17): every call is one FHIR message Bundle
 * POSTed to `{base}/$process-message` over the REST client's transport (same mTLS agent, token,
 * rate buckets, in-flight cap and HTTP error mapping). What it adds:
 *  - the envelope (lib/fhir/messages: header first, fullUrls, focus, event, licences), refused
 *    before sending when wrong or over 10 MB — as a PlatformError the outbox records, not retries;
 *  - idempotent resends: Bundle.id, MessageHeader.id, the Claim's id and the timestamp all derive
 *    from the claim's business identifier and `created`, both fixed when the submission is queued,
 *    so every retry sends the identical Bundle and the exchange answers it with its stored reply;
 *  - reply matching (MessageHeader.response.identifier, else ClaimResponse.request.identifier) and
 *    the reply's own errors (error[], Task output error, OperationOutcome entries) → PlatformError.
 */
export interface MessagingDeps {
  transport: PlatformClient;
  providerLicense: string;
  providerOrgId: string;
  payerLicense: PayerLicenseResolver;
  /** Base of our fullUrls and MessageHeader.source.endpoint (default the portal's FHIR base). */
  sourceEndpoint?: string;
  clock?: () => Date;
}

/** A UUID derived from a seed: the same submission always gets the same message ids. */
export function stableUuid(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

const idOf = (reference: string | undefined, type: string): string | undefined => {
  const m = new RegExp(`(?:^|/)${type}/([A-Za-z0-9\\-.]{1,64})(?:/_history/[^/]+)?$`).exec(reference ?? "");
  return m?.[1];
};

export function createMessagingPlatform(deps: MessagingDeps): PlatformPort {
  const { transport } = deps;
  const clock = deps.clock ?? (() => new Date());
  const source = deps.sourceEndpoint ?? PORTAL_URI_BASE;

  async function destinationFor(target: Parameters<PayerLicenseResolver>[0], requestId: string, field: string): Promise<MessageDestination> {
    const license = await deps.payerLicense(target);
    if (!license) {
      throw new PlatformError({
        status: 422,
        requestId,
        field,
        diagnostics: "the payer's licence on the national exchange is not known (Settings → insurers: licence)",
        message: "The payer's licence on the national exchange is not known: add it to the insurer before sending",
      });
    }
    return { payerLicense: license };
  }

  /** Builds, sends and checks one message; returns the reply with its view. */
  async function exchange(
    init: { event: MessageRequestEvent; focus: Resource; resources?: Resource[]; destination: MessageDestination; seed?: string; timestamp?: Date; bucket: RateBucket; claimIdentifier?: { system?: string; value: string } },
    options: CallOptions,
  ): Promise<PlatformResult<Bundle> & { view: MessageView; headerId: string }> {
    const requestId = options.requestId ?? randomUUID();
    let built;
    try {
      built = buildMessage({
        event: init.event,
        focus: init.focus,
        resources: init.resources,
        providerLicense: deps.providerLicense,
        destination: init.destination,
        sourceEndpoint: source,
        timestamp: init.timestamp ?? clock(),
        ...(init.seed ? { bundleId: stableUuid(`${init.seed}|bundle`), headerId: stableUuid(`${init.seed}|header`) } : {}),
      });
    } catch (error) {
      if (error instanceof MessageTooLargeError) {
        throw new PlatformError({ status: 413, requestId, field: error.attachment?.path, diagnostics: error.message, resolution: error.message, message: error.message });
      }
      if (error instanceof MessageBuildError) {
        throw new PlatformError({ status: 422, requestId, field: error.path, diagnostics: error.reason, message: `The message was not sent: ${error.message}` });
      }
      throw error;
    }
    const reply = await transport.processMessage(built.bundle, init.bucket, { ...options, requestId });
    const { view } = reply;
    if (!answersRequest(view, built.headerId, init.claimIdentifier) && view.header.responseTo !== undefined) {
      throw new PlatformProtocolError({ status: reply.status, requestId, message: "POST /$process-message: the reply answers another message", problems: ["MessageHeader.response.identifier"] });
    }
    if (view.header.responseCode === "transient-error") {
      throw new PlatformUnavailableError({ reason: "server", status: reply.status, requestId, message: "The national exchange reported a transient error; try again later" });
    }
    const focusErrors = view.focus.some((f) => f.outcome === "error" || f.resourceType === "OperationOutcome" || f.resourceType === "Task");
    if (view.errors.length > 0 && (focusErrors || view.header.responseCode === "fatal-error" || view.focus.length === 0)) {
      throw PlatformError.fromMessageErrors(view.errors, reply.status, requestId);
    }
    if (view.header.responseCode === "fatal-error") throw PlatformError.fromMessageErrors([], reply.status, requestId);
    return { ...reply, requestId, headerId: built.headerId };
  }

  function focusOf<T>(reply: { view: MessageView; status: number; requestId: string }, type: string, read: (json: unknown) => T): T {
    const resource = reply.view.focus.find((f) => f.resourceType === type) ?? reply.view.entries.find((e) => e.resourceType === type)?.resource;
    if (!resource) {
      throw new PlatformProtocolError({ status: reply.status, requestId: reply.requestId, message: `POST /$process-message: the reply carries no ${type}`, problems: ["MessageHeader.focus"] });
    }
    try {
      return read(resource);
    } catch (error) {
      if (!isFhirReadError(error)) throw error;
      throw new PlatformProtocolError({ status: reply.status, requestId: reply.requestId, message: `POST /$process-message: the reply's ${type} is not valid FHIR R4`, problems: [`${error.path}: ${error.reason}`] });
    }
  }

  function statusCheckTask(platformId: string): Task {
    return {
      resourceType: "Task",
      id: stableUuid(`status-check|${platformId}|${clock().toISOString()}`),
      status: "requested",
      intent: "order",
      code: { coding: [{ system: NATIONAL_EXCHANGE.taskCodeSystem, code: "status-check" }] },
      focus: { reference: `Claim/${platformId}` },
      authoredOn: clock().toISOString(),
      requester: { reference: `Organization/${deps.providerOrgId}` },
    };
  }

  async function statusCheck(platformId: string, options: CallOptions) {
    const requestId = options.requestId ?? randomUUID();
    const destination = await destinationFor({ claimId: platformId }, requestId, "Claim");
    return exchange({ event: "status-check", focus: statusCheckTask(platformId), destination, bucket: "status" }, { ...options, requestId });
  }

  const provider = (): Organization => ({
    resourceType: "Organization",
    id: deps.providerOrgId,
    identifier: [{ system: NATIONAL_EXCHANGE.providerLicense, value: deps.providerLicense }],
  });

  return {
    protocol: "messaging",

    async checkEligibility(request: CoverageEligibilityRequest, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const destination = await destinationFor({ insurer: idOf(request.insurer?.reference, "Organization") }, requestId, "CoverageEligibilityRequest.insurer");
      const identifier = request.identifier?.[0];
      const seed = identifier?.value ? `eligibility|${identifier.system ?? ""}|${identifier.value}` : undefined;
      const focus = { ...request, id: request.id ?? (seed ? stableUuid(`${seed}|resource`) : randomUUID()) };
      const reply = await exchange({ event: "eligibility-request", focus, destination, seed, bucket: "eligibility" }, { ...options, requestId });
      const read = focusOf(reply, "CoverageEligibilityResponse", readCoverageEligibilityResponse);
      return { data: read.raw, view: read.view, status: reply.status, requestId: reply.requestId };
    },

    async submitClaim(claim: Claim, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const destination = await destinationFor({ coverage: idOf(claim.insurance?.[0]?.coverage?.reference, "Coverage") }, requestId, "Claim.insurance[0].coverage");
      const identifier = claim.identifier?.[0];
      if (!identifier?.value) throw new PlatformError({ status: 422, requestId, field: "Claim.identifier", diagnostics: "a claim is sent with its business identifier" });
      const seed = `claim|${identifier.system ?? ""}|${identifier.value}`;
      const focus = { ...claim, id: claim.id ?? stableUuid(`${seed}|resource`) };
      const reply = await exchange(
        {
          event: claim.use === "preauthorization" ? "priorauth-request" : "claim-request",
          focus,
          destination,
          seed,
          timestamp: claim.created ? new Date(claim.created) : undefined,
          bucket: "claims",
          claimIdentifier: { ...(identifier.system ? { system: identifier.system } : {}), value: identifier.value },
        },
        { ...options, requestId },
      );
      const read = focusOf(reply, "ClaimResponse", readClaimResponse);
      const platformId = referenceId(read.view.request, "Claim");
      return { data: read.raw, view: read.view, status: reply.status, requestId: reply.requestId, ...(platformId ? { platformId } : {}) };
    },

    async readClaim(platformId, options = {}) {
      const reply = await statusCheck(platformId, options);
      const read = focusOf<Read<{ notes: string[] }, Claim>>(reply, "Claim", (json) => readResource<Claim>(json, "Claim"));
      const processingStatus = claimProcessingStatus(read.raw);
      return { data: read.raw, status: reply.status, requestId: reply.requestId, ...(processingStatus ? { processingStatus } : {}) };
    },

    async claimResponses(platformId, options = {}) {
      const reply = await statusCheck(platformId, options);
      const responses = reply.view.entries
        .filter((e) => e.resourceType === "ClaimResponse" && e.resource)
        .map((e) => focusOf({ ...reply, view: { ...reply.view, focus: [e.resource!], entries: [] } }, "ClaimResponse", readClaimResponse));
      return { data: responses.map((r) => r.raw as ClaimResponse), views: responses.map((r) => r.view), status: reply.status, requestId: reply.requestId };
    },

    searchClaims(_query, options = {}) {
      // Only the outbox's ERR-005 reconciliation searches; in messaging a repeated message is
      // answered with the exchange's stored reply, so there is no duplicate to look up.
      return Promise.reject(
        new PlatformError({ status: 501, requestId: options.requestId ?? randomUUID(), diagnostics: "searching claims is a REST call; the messaging protocol has no search" }),
      );
    },

    async pollMessages(options = {}): Promise<PolledMessages> {
      const task = buildPollTask({ id: randomUUID(), requesterOrgId: deps.providerOrgId, count: options.count ?? MAX_MESSAGES_PER_POLL, authoredOn: clock() });
      const reply = await exchange({ event: "poll-request", focus: task, resources: [provider()], destination: { exchange: true }, bucket: "status" }, options);
      return { messages: reply.view.messages, more: reply.view.queuedMessages, requestId: reply.requestId };
    },

    // ---- issue 18 (items 1–3): cancel-request and communication messages ----
    async cancel(task: Task, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const claimId = idOf(task.focus?.reference, "Claim");
      const destination = await destinationFor({ claimId }, requestId, "Task.focus");
      const reply = await exchange({ event: "cancel-request", focus: task, resources: [provider()], destination, bucket: "claims" }, { ...options, requestId });
      const read = focusOf<Read<{ notes: string[] }, Task>>(reply, "Task", (json) => readResource<Task>(json, "Task"));
      return { data: read.raw, status: reply.status, requestId: reply.requestId, outcome: cancelOutcomeOf(read.raw) };
    },

    async sendCommunication(communication: Communication, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const claimId = communication.about?.map((a) => idOf(a.reference, "Claim")).find(Boolean);
      const destination = await destinationFor({ claimId }, requestId, "Communication.about");
      const reply = await exchange({ event: "communication", focus: communication, resources: [provider()], destination, bucket: "claims" }, { ...options, requestId });
      // The exchange's receipt (acknowledgement): the payer's own acknowledgement comes later, by poll.
      const echoed = reply.view.entries.find((e) => e.resourceType === "Communication")?.resource as Record<string, unknown> | undefined;
      const data = echoed ?? (reply.data as unknown as Record<string, unknown>);
      const platformId = typeof echoed?.id === "string" ? echoed.id : communication.id;
      return { data, status: reply.status, requestId: reply.requestId, ...(platformId ? { platformId } : {}) };
    },

    async sendPaymentNotice(notice, options = {}) {
      // Addressed to the exchange; the id is fixed per remittance and status, so a resend is the same message.
      const seed = `payment-notice|${notice.id ?? randomUUID()}`;
      const reply = await exchange({ event: "payment-notice", focus: notice, destination: { exchange: true }, seed, bucket: "claims" }, options);
      if (reply.view.header.responseTo !== reply.headerId) {
        throw new PlatformProtocolError({ status: reply.status, requestId: reply.requestId, message: "POST /$process-message: the payment notice was not acknowledged", problems: ["MessageHeader.response"] });
      }
      return { status: reply.status, requestId: reply.requestId, data: reply.data as unknown as Record<string, unknown> };
    },

    close: () => transport.close(),
  };
}

import { createHash, randomUUID } from "node:crypto";
import type { Bundle, Claim, ClaimResponse, Communication, CoverageEligibilityRequest, Organization, Resource, Task } from "@medplum/fhirtypes";
import {
  NATIONAL_EXCHANGE,
  PORTAL_URI_BASE,
  MessageBuildError,
  MessageTooLargeError,
  answersRequest,
  buildBatchMessage,
  buildMessage,
  buildPollTask,
  claimInBatch,
  claimProcessingStatus,
  isFhirReadError,
  readClaimResponse,
  readCoverageEligibilityResponse,
  readResource,
  referenceId,
  MAX_CLAIMS_PER_BATCH,
  MAX_MESSAGES_PER_POLL,
  type BuiltMessage,
  type MessageDestination,
  type MessageRequestEvent,
  type MessageView,
  type Read,
} from "@/lib/fhir";
import type { CallOptions, PlatformClient, PlatformResult } from "./client";
import { PlatformError, PlatformProtocolError, PlatformUnavailableError, type RateBucket } from "./errors";
import type { KnownClaimsResolver, PayerLicenseResolver } from "./payer-license";
import { cancelOutcomeOf, type BatchOutcome, type PlatformPort, type PolledMessages } from "./port";

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
  /** The platform Claim ids the portal sent for a patient: what "search" can mean without a search (decision 050). */
  knownClaims?: KnownClaimsResolver;
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

/** A message we would not send (over 10 MB, against the envelope rules) as the PlatformError the outbox records; other errors as they are. */
function asRefusal(error: unknown, requestId: string): unknown {
  if (error instanceof MessageTooLargeError) {
    return new PlatformError({ status: 413, requestId, field: error.attachment?.path, diagnostics: error.message, resolution: error.message, message: error.message });
  }
  if (error instanceof MessageBuildError) {
    return new PlatformError({ status: 422, requestId, field: error.path, diagnostics: error.reason, message: `The message was not sent: ${error.message}` });
  }
  return error;
}

function refusedBeforeSending<T>(requestId: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw asRefusal(error, requestId);
  }
}

/** Claims grouped by payer licence, then cut at 200 per batch (the 10 MB limit is checked as each batch is built). */
function batchesOf<T extends { license: string }>(ready: readonly T[]): T[][] {
  const byPayer = new Map<string, T[]>();
  for (const r of ready) byPayer.set(r.license, [...(byPayer.get(r.license) ?? []), r]);
  const out: T[][] = [];
  for (const group of byPayer.values()) {
    for (let i = 0; i < group.length; i += MAX_CLAIMS_PER_BATCH) out.push(group.slice(i, i + MAX_CLAIMS_PER_BATCH));
  }
  return out;
}

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

  /** Builds one message (ids from `seed` when given); a message we would not send is a PlatformError (413, 422). */
  function build(init: { event: MessageRequestEvent; focus: Resource; resources?: Resource[]; destination: MessageDestination; seed?: string; timestamp?: Date; requestId: string }): BuiltMessage {
    return refusedBeforeSending(init.requestId, () =>
      buildMessage({
        event: init.event,
        focus: init.focus,
        resources: init.resources,
        providerLicense: deps.providerLicense,
        destination: init.destination,
        sourceEndpoint: source,
        timestamp: init.timestamp ?? clock(),
        ...(init.seed ? { bundleId: stableUuid(`${init.seed}|bundle`), headerId: stableUuid(`${init.seed}|header`) } : {}),
      }),
    );
  }

  /** Builds, sends and checks one message; returns the reply with its view. */
  async function exchange(
    init: { event: MessageRequestEvent; focus: Resource; resources?: Resource[]; destination: MessageDestination; seed?: string; timestamp?: Date; bucket: RateBucket; claimIdentifier?: { system?: string; value: string } },
    options: CallOptions,
  ): Promise<PlatformResult<Bundle> & { view: MessageView; headerId: string }> {
    const requestId = options.requestId ?? randomUUID();
    const built = build({ ...init, requestId });
    const reply = await transport.processMessage(built.bundle, init.bucket, { ...options, requestId });
    checkReply(reply.view, { status: reply.status, requestId, headerId: built.headerId, claimIdentifier: init.claimIdentifier });
    return { ...reply, requestId, headerId: built.headerId };
  }

  /** Throws what a reply says went wrong: it answers another message, a transient error, the exchange's refusal. */
  function checkReply(view: MessageView, at: { status: number; requestId: string; headerId: string; claimIdentifier?: { system?: string; value: string }; errorStatus?: number }): void {
    const { status, requestId } = at;
    if (!answersRequest(view, at.headerId, at.claimIdentifier) && view.header.responseTo !== undefined) {
      throw new PlatformProtocolError({ status, requestId, message: "POST /$process-message: the reply answers another message", problems: ["MessageHeader.response.identifier"] });
    }
    if (view.header.responseCode === "transient-error") {
      throw new PlatformUnavailableError({ reason: "server", status, requestId, message: "The national exchange reported a transient error; try again later" });
    }
    const focusErrors = view.focus.some((f) => f.outcome === "error" || f.resourceType === "OperationOutcome" || f.resourceType === "Task");
    if (view.errors.length > 0 && (focusErrors || view.header.responseCode === "fatal-error" || view.focus.length === 0)) {
      throw PlatformError.fromMessageErrors(view.errors, at.errorStatus ?? status, requestId);
    }
    if (view.header.responseCode === "fatal-error") throw PlatformError.fromMessageErrors([], at.errorStatus ?? status, requestId);
  }

  /** A claim-request message for `claim` (ids fixed by its business identifier: a resend is the same message). */
  function claimMessage(claim: Claim, destination: MessageDestination, requestId: string, batch?: { id: string; number: number; period: { start: string; end: string } }) {
    const identifier = claim.identifier?.[0];
    if (!identifier?.value) throw new PlatformError({ status: 422, requestId, field: "Claim.identifier", diagnostics: "a claim is sent with its business identifier" });
    const seed = `claim|${identifier.system ?? ""}|${identifier.value}`;
    let focus: Claim = { ...claim, id: claim.id ?? stableUuid(`${seed}|resource`) };
    if (batch) focus = claimInBatch(focus, { ...batch, system: `${source.replace(/\/+$/, "")}/batch` });
    const built = build({
      event: claim.use === "preauthorization" ? "priorauth-request" : "claim-request",
      focus,
      destination,
      seed,
      timestamp: claim.created ? new Date(claim.created) : undefined,
      requestId,
    });
    return { built, seed, claimIdentifier: { ...(identifier.system ? { system: identifier.system } : {}), value: identifier.value } };
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

  /** The platform's Claim as a status-check answers it. */
  async function readClaim(platformId: string, options: CallOptions = {}) {
    const reply = await statusCheck(platformId, options);
    const read = focusOf<Read<{ notes: string[] }, Claim>>(reply, "Claim", (json) => readResource<Claim>(json, "Claim"));
    const processingStatus = claimProcessingStatus(read.raw);
    return { data: read.raw, status: reply.status, requestId: reply.requestId, ...(processingStatus ? { processingStatus } : {}) };
  }

  /** The ClaimResponse a reply carries, with the platform's Claim id. */
  function claimAnswer(reply: { view: MessageView; status: number; requestId: string }) {
    const read = focusOf(reply, "ClaimResponse", readClaimResponse);
    const platformId = referenceId(read.view.request, "Claim");
    return { data: read.raw, view: read.view, status: reply.status, requestId: reply.requestId, ...(platformId ? { platformId } : {}) };
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
      const { built, claimIdentifier } = claimMessage(claim, destination, requestId);
      const reply = await transport.processMessage(built.bundle, "claims", { ...options, requestId });
      checkReply(reply.view, { status: reply.status, requestId, headerId: built.headerId, claimIdentifier });
      return claimAnswer({ ...reply, requestId });
    },

    async submitClaimBatch(claims: readonly Claim[], options = {}): Promise<BatchOutcome[]> {
      const requestId = options.requestId ?? randomUUID();
      const outcomes: (BatchOutcome | undefined)[] = claims.map(() => undefined);
      // What each claim needs before it can travel (its use, identifier and payer): one that lacks
      // it fails alone. Its message is built once, in its batch; one that cannot be built makes its
      // batch fail as a whole, and the outbox then sends those claims alone, each refused on its own.
      type Ready = { index: number; license: string; claim: Claim; claimIdentifier: { system?: string; value: string } };
      const ready: Ready[] = [];
      for (const [index, claim] of claims.entries()) {
        try {
          if (claim.use !== "claim") throw new PlatformError({ status: 422, requestId, field: "Claim.use", diagnostics: "a batch-request carries claims (use claim) only" });
          const identifier = claim.identifier?.[0];
          if (!identifier?.value) throw new PlatformError({ status: 422, requestId, field: "Claim.identifier", diagnostics: "a claim is sent with its business identifier" });
          const destination = await destinationFor({ coverage: idOf(claim.insurance?.[0]?.coverage?.reference, "Coverage") }, requestId, "Claim.insurance[0].coverage");
          const claimIdentifier = { ...(identifier.system ? { system: identifier.system } : {}), value: identifier.value };
          ready.push({ index, license: (destination as { payerLicense: string }).payerLicense, claim, claimIdentifier });
        } catch (error) {
          outcomes[index] = { ok: false, error };
        }
      }
      // One batch-request per payer, at most 200 claims and 10 MB each.
      const created = claims.map((c) => c.created).filter((c): c is string => typeof c === "string").sort();
      const period = { start: (created[0] ?? clock().toISOString()).slice(0, 10), end: (created.at(-1) ?? clock().toISOString()).slice(0, 10) };
      const queue = batchesOf(ready);
      while (queue.length > 0) {
        const group = queue.shift()!;
        const batchId = stableUuid(`batch|${group.map((r) => `${r.claimIdentifier.system ?? ""}|${r.claimIdentifier.value}`).join(",")}`);
        let inner: ReturnType<typeof claimMessage>[];
        let outer: BuiltMessage;
        try {
          inner = group.map((r, i) => claimMessage(r.claim, { payerLicense: r.license }, requestId, { id: batchId, number: i + 1, period }));
          outer = buildBatchMessage({
            messages: inner.map((m) => m.built),
            providerLicense: deps.providerLicense,
            payerLicense: group[0]!.license,
            sourceEndpoint: source,
            bundleId: stableUuid(`${batchId}|bundle`),
            headerId: stableUuid(`${batchId}|header`),
            timestamp: clock(),
          });
        } catch (error) {
          // Claims that fit alone but not together: two smaller batches.
          if (error instanceof MessageTooLargeError && group.length > 1) {
            const half = Math.ceil(group.length / 2);
            queue.unshift(group.slice(0, half), group.slice(half));
            continue;
          }
          for (const r of group) outcomes[r.index] = { ok: false, error: asRefusal(error, requestId), batchWide: true };
          continue;
        }
        try {
          const reply = await transport.processMessage(outer.bundle, "claims", { ...options, requestId });
          checkReply(reply.view, { status: reply.status, requestId, headerId: outer.headerId });
          for (const [i, r] of group.entries()) {
            const own = inner[i]!;
            const answer = reply.view.messages.find((m) => answersRequest(m, own.built.headerId, r.claimIdentifier));
            try {
              if (!answer) throw new PlatformProtocolError({ status: reply.status, requestId, message: "POST /$process-message: the batch-response has no answer for this claim", problems: ["Bundle.entry"] });
              checkReply(answer, { status: reply.status, requestId, headerId: own.built.headerId, claimIdentifier: r.claimIdentifier, errorStatus: 422 });
              outcomes[r.index] = { ok: true, answer: claimAnswer({ view: answer, status: reply.status, requestId }) };
            } catch (error) {
              outcomes[r.index] = { ok: false, error };
            }
          }
        } catch (error) {
          // The whole batch met it (unavailable, refused as a whole): every claim of it did.
          for (const r of group) outcomes[r.index] = { ok: false, error, batchWide: true };
        }
      }
      return outcomes.map((o) => o!);
    },

    readClaim,

    async claimResponses(platformId, options = {}) {
      const reply = await statusCheck(platformId, options);
      const responses = reply.view.entries
        .filter((e) => e.resourceType === "ClaimResponse" && e.resource)
        .map((e) => focusOf({ ...reply, view: { ...reply.view, focus: [e.resource!], entries: [] } }, "ClaimResponse", readClaimResponse));
      return { data: responses.map((r) => r.raw as ClaimResponse), views: responses.map((r) => r.view), status: reply.status, requestId: reply.requestId };
    },

    async searchClaims(query, options = {}) {
      // The exchange has no search: the patient's claims the portal sent, each read with a
      // status-check (at most 50, newest first). Claims another system sent cannot be found here.
      const requestId = options.requestId ?? randomUUID();
      if (!deps.knownClaims) {
        throw new PlatformError({ status: 501, requestId, diagnostics: "searching claims is a REST call; the messaging protocol has no search" });
      }
      const ids = await deps.knownClaims(query, 50);
      const claims: Claim[] = [];
      for (const id of ids) {
        try {
          claims.push((await readClaim(id, { ...options, requestId })).data);
        } catch (error) {
          // A claim the exchange no longer knows (or that is not ours) is simply not in the answer.
          if (!(error instanceof PlatformError) || error.status >= 500) throw error;
        }
      }
      const bundle: Bundle<Claim> = { resourceType: "Bundle", type: "searchset", total: claims.length, entry: claims.map((resource) => ({ resource })) };
      return { data: bundle, status: 200, requestId };
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

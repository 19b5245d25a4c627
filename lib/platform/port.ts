import type { Bundle, Claim, ClaimResponse, Communication, CoverageEligibilityRequest, CoverageEligibilityResponse, PaymentNotice, Task } from "@medplum/fhirtypes";
import type { BenefitsView, ClaimResponseView, MessagePart, MessageView } from "@/lib/fhir";
import type { RatePriority } from "./rate-limiter";

export type PlatformProtocol = "rest" | "messaging";

/** How one call to the platform is made (both protocols). */
export interface CallOptions {
  requestId?: string;
  signal?: AbortSignal;
  /** default true: wait for a rate-limit permit instead of throwing */
  waitForPermit?: boolean;
  /** default `interactive`; `batch` (visit-list runs) yields to interactive callers (decision 043). */
  priority?: RatePriority;
}

/** One answer of the platform. */
export interface PlatformResult<T> {
  /** The answer exactly as received (checked against FHIR R4). */
  data: T;
  status: number;
  requestId: string;
  location?: string;
  /** The body as it arrived, for the inbox (docs/decisions/096). */
  received?: string;
}

/**
 * A message the platform sent that the inbox keeps before it is applied (docs/decisions/096): the
 * answer to a claim or prior authorization, whole — the response message (messaging; a batch's
 * own part) or the ClaimResponse (REST).
 */
export interface ReceivedAnswer {
  body: string;
  /** The response message's Bundle id (messaging). */
  messageId?: string;
  event?: string;
  /** `batch` for a part of a batch-response, else `sync`. */
  source: "sync" | "batch";
  /** REST: the body is the resource itself, not a message. */
  resource?: boolean;
}

/** The platform's answer to a claim or prior authorization, read once (docs/decisions/078). */
export type ClaimAnswer = PlatformResult<ClaimResponse> & { view: ClaimResponseView; platformId?: string; answer?: ReceivedAnswer };

/** `Claim/{id}`, `Claim/{id}/_history/1` or an absolute URL ending so → `{id}`. */
export function claimIdFromLocation(location: string | undefined): string | undefined {
  if (!location) return undefined;
  const match = /(?:^|\/)Claim\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?\/?$/.exec(location);
  return match?.[1];
}

/** One poll-request's harvest: the messages (≤ 100) and whether the exchange said more wait. */
export interface PolledMessages {
  /** The messages that read as R4 (the views of `parts` that have one). */
  messages: MessageView[];
  /** Every message of the reply, each read on its own: its raw Bundle and its view, or why it could not be read. */
  parts: MessagePart[];
  /** The `queued-messages` meta tag was present: poll again at once. */
  more: boolean;
  requestId: string;
}

/**
 * The one way out to the national platform (docs/decisions/034). The outbox, the
 * poller, the screens and the machine APIs use this and never ask which protocol is behind it:
 * `rest` (the spec's endpoints, client.ts) or `messaging` (FHIR message Bundles to
 * `$process-message`, messaging.ts). Answers are the same R4 resources and views either way.
 */
export interface PlatformPort {
  readonly protocol: PlatformProtocol;
  checkEligibility(request: CoverageEligibilityRequest, options?: CallOptions): Promise<PlatformResult<CoverageEligibilityResponse> & { view: BenefitsView }>;
  submitClaim(claim: Claim, options?: CallOptions): Promise<ClaimAnswer>;
  readClaim(platformId: string, options?: CallOptions): Promise<PlatformResult<Claim> & { processingStatus?: string }>;
  searchClaims(query: { patient: string; createdOnOrAfter: string }, options?: CallOptions): Promise<PlatformResult<Bundle<Claim>>>;
  claimResponses(platformId: string, options?: CallOptions): Promise<PlatformResult<ClaimResponse[]> & { views: ClaimResponseView[] }>;
  /**
   * Where a submission stands at the platform, asked by what the portal is sure to know: our Claim
   * identifier (decision 073). REST: `GET /Claim/{id}` + `GET /ClaimResponse?request=` (the platform
   * id is needed there and REST always gives one); messaging: a status-check Task (code `status`,
   * focus by identifier) whose answer is read from `Task.output` and the ClaimResponse it names.
   */
  claimStatus(key: ClaimKey, options?: CallOptions): Promise<ClaimStatusResult>;
  /** REST only: GET /{type}/{id} of a resource a `resource.available` webhook announced (inbound routing). */
  readResource?(type: string, id: string, options?: CallOptions): Promise<PlatformResult<Record<string, unknown>>>;
  /**
   * Messaging only: one poll-request for waiting messages (pended answers, CommunicationRequests,
   * PaymentReconciliations). Absent in REST, where the platform pushes webhooks instead.
   */
  pollMessages?(options?: CallOptions & { count?: number; pollId?: string }): Promise<PolledMessages>;

  /**
   * Messaging only: claims (use `claim`) sent together as batch-requests (≤ 200 claims per payer
   * and message, within 10 MB), each answered as if sent alone. One outcome per claim, in order:
   * its answer, or the error that claim alone met (a refusal, or trouble the whole batch met).
   */
  submitClaimBatch?(claims: readonly Claim[], options?: CallOptions): Promise<BatchOutcome[]>;

  // ---- Decision 045: cancel, answer an information request ----
  /**
   * Cancel or nullify a Claim (authorization or claim) with a cancel Task (lib/fhir buildCancelTask).
   * REST: `POST /Task`; messaging: a `cancel-request` message answered by `cancel-response`. The
   * platform's answer: the Task `completed` (done) or `rejected`/`failed` with its reason.
   */
  cancel(task: Task, options?: CallOptions): Promise<PlatformResult<Task> & { outcome: CancelOutcome }>;
  /**
   * The answer to a payer's CommunicationRequest (lib/fhir buildCommunication). REST: `POST
   * /Communication`; messaging: a `communication` message. The payer's acknowledgement arrives
   * later, on its own (inbound routing).
   */
  sendCommunication(communication: Communication, options?: CallOptions): Promise<PlatformResult<Record<string, unknown>> & { platformId?: string }>;
  /**
   * Payments (docs/decisions/047): the clinic's PaymentNotice about a remittance (paid, then cleared). REST:
   * `POST /PaymentNotice` (the sandbox's extension of the spec); messaging: event `payment-notice`
   * to the exchange, answered by an `acknowledgement`. Resolves once the platform accepted it.
   */
  sendPaymentNotice(notice: PaymentNotice, options?: CallOptions): Promise<PaymentNoticeResult>;
  close(): Promise<void>;
}

/**
 * How the portal names one of its submissions to the platform: our Claim identifier (always known,
 * fixed when queued) and the platform's id when the platform gave one (decision 073).
 */
/** A port that speaks messaging: it polls for what the exchange queued (no webhooks then). */
export type PollingPort = PlatformPort & Required<Pick<PlatformPort, "pollMessages">>;

export function canPollMessages(port: PlatformPort): port is PollingPort {
  return typeof port.pollMessages === "function";
}

export interface ClaimKey {
  identifier?: { system?: string; value: string };
  platformId?: string;
}

/** What a status check found: the processing status, and the adjudication once decided. */
export interface ClaimStatusResult {
  /** queued | pended | complete | partial | denied | cancelled … as the platform says it. */
  processingStatus?: string;
  /** The newest adjudicated ClaimResponse, when decided. */
  response?: ClaimResponse;
  responseView?: ClaimResponseView;
  /** The platform's id of the Claim, when the answer names one. */
  platformId?: string;
  status: number;
  requestId: string;
}

/** What one claim of a batch met. */
export type BatchOutcome =
  | { ok: true; answer: ClaimAnswer }
  /** `batchWide`: the batch as a whole met the error (unavailable, refused), not this claim. */
  | { ok: false; error: unknown; batchWide?: boolean };

/**
 * A port, or how to get the port of a facility (decision 049): work about one submission goes out
 * through that submission's facility (`getPlatformPort` fits).
 */
export type PortSource = PlatformPort | ((facilityId: string | null) => Promise<PlatformPort>);

export async function portOf(source: PortSource, facilityId: string | null): Promise<PlatformPort> {
  return typeof source === "function" ? source(facilityId) : source;
}

/** What the platform said to a cancel Task. */
export interface CancelOutcome {
  done: boolean;
  /** The Task's status as answered (completed, rejected, failed …). */
  taskStatus: string;
  /** The platform's words when it refused (statusReason, output error). */
  reason?: string;
}

/** Reads the answer to a cancel Task (both adapters). */
export function cancelOutcomeOf(task: Task): CancelOutcome {
  const status = task.status ?? "unknown";
  const words =
    task.statusReason?.text ??
    task.statusReason?.coding?.[0]?.display ??
    task.output?.map((o) => o.valueCodeableConcept?.text ?? o.valueCodeableConcept?.coding?.[0]?.display ?? o.valueString).find(Boolean);
  return { done: status === "completed", taskStatus: status, ...(words ? { reason: words } : {}) };
}

/** The platform's acceptance of a PaymentNotice: the stored notice (REST) or the acknowledgement message (messaging). */
export interface PaymentNoticeResult {
  status: number;
  requestId: string;
  data: Record<string, unknown>;
}


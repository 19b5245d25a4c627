import { randomUUID } from "node:crypto";
import { isUuid } from "@/lib/ids";
import type { Resource, Bundle, Claim, ClaimResponse, Communication, CoverageEligibilityRequest, CoverageEligibilityResponse, PaymentNotice, Task } from "@medplum/fhirtypes";
import { request } from "undici";
import type { Db } from "@/lib/db";
import {
  FHIR_JSON,
  bundleResources,
  claimProcessingStatus,
  isFhirReadError,
  readBundle,
  readClaimResponse,
  readCoverageEligibilityResponse,
  readMessage,
  readOperationOutcome,
  readResource,
  referenceId,
  type BenefitsView,
  type ClaimResponseView,
  type MessageView,
  type Read,
} from "@/lib/fhir";
import type { PaymentNoticeResult } from "./port";
import type { PlatformConfig } from "./config";
import {
  PlatformError,
  PlatformProtocolError,
  PlatformRateLimitedError,
  PlatformUnavailableError,
  type RateBucket,
} from "./errors";
import { Gate } from "./gate";
import { headerValue, parseRetryAfter, transportError } from "./http";
import { createLogger, type PlatformLogger } from "./logger";
import { PlatformRateLimiter, type RateLimitConfig } from "./rate-limiter";
import { TokenSource, type AccessToken } from "./token";
import { cancelOutcomeOf, claimIdFromLocation, type CallOptions, type CancelOutcome, type ClaimKey, type ClaimStatusResult, type PlatformPort, type PlatformResult, type ClaimAnswer } from "./port";
import { restClaimStatus } from "./claim-status";
import { PlatformTransport, type TransportStats } from "./transport";

export interface PlatformClientStats extends TransportStats {
  /** Calls to FHIR endpoints (each attempt counts). */
  calls: number;
  tokenRequests: number;
  /** 429 answers received from the platform. */
  rateLimited: number;
}

/** The REST adapter of the platform port (the spec's endpoints), and the transport of the messaging one. */
export interface PlatformClient {
  readonly protocol: "rest";
  checkEligibility(request: CoverageEligibilityRequest, options?: CallOptions): Promise<PlatformResult<CoverageEligibilityResponse> & { view: BenefitsView }>;
  /** POST /Claim (use claim or preauthorization). data = the ClaimResponse in the body; platformId parsed from Location (`Claim/{id}`) or response.request */
  submitClaim(claim: Claim, options?: CallOptions): Promise<ClaimAnswer>;
  /** GET /Claim/{id}; processingStatus from the sandbox's claim-processing-status extension */
  readClaim(platformId: string, options?: CallOptions): Promise<PlatformResult<Claim> & { processingStatus?: string }>;
  /** GET /Claim?patient=&created=ge{date} → the Bundle searchset */
  searchClaims(query: { patient: string; createdOnOrAfter: string }, options?: CallOptions): Promise<PlatformResult<Bundle<Claim>>>;
  /** GET /ClaimResponse?request={id} → the ClaimResponses in the searchset (may be empty) */
  claimResponses(platformId: string, options?: CallOptions): Promise<PlatformResult<ClaimResponse[]> & { views: ClaimResponseView[] }>;
  /** GET /Claim/{id}, then its ClaimResponses once decided (claim-status.ts). */
  claimStatus(key: ClaimKey, options?: CallOptions): Promise<ClaimStatusResult>;
  /**
   * GET /{type}/{id} of a resource the platform announced (`resource.available` webhook — the
   * sandbox's extension of the spec): CommunicationRequest, PaymentReconciliation, … `data` is the
   * resource as received once it is valid R4 of that type.
   */
  readResource(type: string, id: string, options?: CallOptions): Promise<PlatformResult<Record<string, unknown>>>;
  close(): Promise<void>;
  /**
   * POST {base}/$process-message: one FHIR message over this client's transport (mTLS, token, rate
   * bucket, in-flight cap, error mapping). data = the reply message; view = readMessage's view.
   * Used by the messaging adapter (messaging.ts); the caller builds the Bundle (lib/fhir/messages).
   */
  processMessage(bundle: Bundle, bucket: RateBucket, options?: CallOptions): Promise<PlatformResult<Bundle> & { view: MessageView }>;
  /** POST /PaymentNotice (payments, decision 047): 201 with the stored notice. */
  sendPaymentNotice(notice: PaymentNotice, options?: CallOptions): Promise<PaymentNoticeResult>;

  // ---- Decision 045: cancel, answer an information request (REST: the sandbox's extension of the spec) ----
  /** POST /Task (a cancel Task) → the Task as the platform answered it. */
  cancel(task: Task, options?: CallOptions): Promise<PlatformResult<Task> & { outcome: CancelOutcome }>;
  /** POST /Communication → the stored Communication (id in `platformId`). */
  sendCommunication(communication: Communication, options?: CallOptions): Promise<PlatformResult<Record<string, unknown>> & { platformId?: string }>;

  // ---- additions beyond the agreed interface ----
  /** A valid access token (cached or fetched now); `fresh` forces a new one (connection test). */
  accessToken(options?: { fresh?: boolean; signal?: AbortSignal }): Promise<Pick<AccessToken, "expiresAt" | "scope">>;
  /** Counters: TLS handshakes, token requests, calls, 429s. */
  stats(): PlatformClientStats;
  readonly config: PlatformConfig;
  readonly rateLimiter: PlatformRateLimiter;
}

export interface PlatformClientDeps {
  db: Db;
  /** Clock for token expiry (default: system time). */
  clock?: () => Date;
  limits?: Partial<RateLimitConfig>;
  logger?: PlatformLogger;
  /** Bounded self-retry of eligibility calls after a platform 429 (waitForPermit=true). Default 2. */
  eligibility429Retries?: number;
  /** How often the PEM files are checked for changes (default 2 s). */
  tlsCheckIntervalMs?: number;
  /**
   * Requests in flight per endpoint group (default 16). Callers beyond it wait BEFORE taking a rate
   * permit, so a permit is never held while the request sits in a socket queue. The agent's
   * socket cap defaults to three times this, so the groups never wait for each other's sockets.
   */
  maxInFlightPerBucket?: number;
}

interface Send<V, R> {
  method: "GET" | "POST";
  /** For logs: `/Claim/{id}` — never ids or query values. */
  template: string;
  path: string;
  body?: unknown;
  bucket: RateBucket;
  /** Reads a 2xx answer (lib/fhir readers); a FhirReadError becomes a PlatformProtocolError. */
  read: (json: unknown) => Read<V, R>;
}

export function createPlatformClient(config: PlatformConfig, deps: PlatformClientDeps): PlatformClient {
  const clock = deps.clock ?? (() => new Date());
  const logger = deps.logger ?? createLogger();
  const perBucket = deps.maxInFlightPerBucket ?? 16;
  const transport = new PlatformTransport({ ...config, connections: config.connections ?? perBucket * 3 }, { logger, checkIntervalMs: deps.tlsCheckIntervalMs });
  const gates: Record<RateBucket, Gate> = { eligibility: new Gate(perBucket), claims: new Gate(perBucket), status: new Gate(perBucket) };
  const tokens = new TokenSource(config, transport, clock, logger);
  const limiter = new PlatformRateLimiter(deps.db, deps.limits);
  const counters = { calls: 0, rateLimited: 0 };
  const eligibilityRetries = deps.eligibility429Retries ?? 2;

  async function send<V, R>(spec: Send<V, R>, options: CallOptions = {}): Promise<PlatformResult<R> & { view: V }> {
    const requestId = options.requestId ?? randomUUID();
    if (!isUuid(requestId)) throw new TypeError("X-Request-ID must be a UUID");
    const leave = await gates[spec.bucket].enter(options.signal, options.priority);
    try {
      return await sendInGate(spec, options, requestId);
    } finally {
      leave();
    }
  }

  async function sendInGate<V, R>(spec: Send<V, R>, options: CallOptions, requestId: string): Promise<PlatformResult<R> & { view: V }> {
    const wait = options.waitForPermit ?? true;
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    let refreshedToken = false;
    let retries429 = 0;
    let networkRetried = false;
    let needPermit = true;

    for (;;) {
      if (needPermit) await limiter.acquire(spec.bucket, { wait, signal: options.signal, requestId, priority: options.priority });
      needPermit = true;
      const token = await tokens.get(options.signal);
      const started = performance.now();
      let status = 0;
      let text = "";
      let headers: Record<string, string | string[] | undefined> = {};
      counters.calls++;
      try {
        const res = await request(`${config.baseUrl}${spec.path}`, {
          method: spec.method,
          dispatcher: transport.dispatcher(),
          signal: options.signal,
          headers: {
            authorization: `Bearer ${token.value}`,
            accept: FHIR_JSON,
            "x-request-id": requestId,
            // The spec lists Content-Type among the headers of every FHIR request, GETs included.
            "content-type": FHIR_JSON,
          },
          body: payload,
        });
        status = res.statusCode;
        headers = res.headers;
        text = await res.body.text();
      } catch (error) {
        logger.info(`${spec.method} ${spec.template} ${status || "-"} ${requestId} ${(performance.now() - started).toFixed(1)}ms ${(error as { code?: string }).code ?? "error"}`);
        const mapped = transportError(error, requestId, `${spec.method} ${spec.template}`);
        // A GET changes nothing: one retry when the connection failed before an answer (e.g. a
        // kept-alive socket the server had just closed). POSTs are never repeated here.
        if (mapped instanceof PlatformUnavailableError && mapped.reason === "network" && spec.method === "GET" && !networkRetried) {
          networkRetried = true;
          continue;
        }
        throw mapped;
      }
      logger.info(`${spec.method} ${spec.template} ${status} ${requestId} ${(performance.now() - started).toFixed(1)}ms`);
      const location = headerValue(headers.location);

      if (status >= 200 && status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw new PlatformProtocolError({ status, requestId, message: `${spec.method} ${spec.template}: the platform answered ${status} with a body that is not JSON` });
        }
        let read: Read<V, R>;
        try {
          read = spec.read(json);
        } catch (error) {
          if (!isFhirReadError(error)) throw error;
          throw new PlatformProtocolError({
            status,
            requestId,
            message: `${spec.method} ${spec.template}: the platform's ${status} answer is not the expected FHIR R4 resource`,
            problems: [`${error.path}: ${error.reason}`],
          });
        }
        return { data: read.raw, view: read.view, status, requestId, received: text, ...(location ? { location } : {}) };
      }

      if (status === 401 && !refreshedToken) {
        // Expired or refused token: fetch a new one and try once more. A 401 is answered before
        // the platform counts the request, so the permit we hold is still unused.
        refreshedToken = true;
        tokens.invalidate(token.value);
        needPermit = false;
        continue;
      }

      if (status === 429) {
        counters.rateLimited++;
        const retryAfterMs = parseRetryAfter(headers["retry-after"], Date.now(), 1_000);
        await limiter.block(spec.bucket, retryAfterMs);
        logger.warn(`${spec.method} ${spec.template} 429: ${spec.bucket} paused for ${retryAfterMs} ms`);
        if (spec.bucket === "eligibility" && wait && retries429 < eligibilityRetries) {
          retries429++;
          continue; // acquire() waits for the block to pass
        }
        throw new PlatformRateLimitedError({ bucket: spec.bucket, retryAfterMs, requestId, fromPlatform: true });
      }

      if (status >= 500) {
        const retryAfter = headers["retry-after"] ? parseRetryAfter(headers["retry-after"], Date.now(), 0) : undefined;
        throw new PlatformUnavailableError({
          reason: "server",
          status,
          requestId,
          message: `${spec.method} ${spec.template}: the platform answered HTTP ${status}`,
          ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
        });
      }

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      let outcome: ReturnType<typeof readOperationOutcome> | undefined;
      try {
        outcome = json === undefined ? undefined : readOperationOutcome(json);
      } catch (error) {
        if (!isFhirReadError(error)) throw error;
      }
      if (outcome) throw PlatformError.fromOutcome(outcome.raw, status, requestId, location);
      throw new PlatformError({ status, requestId, diagnostics: `HTTP ${status} without an OperationOutcome` });
    }
  }

  const client: PlatformClient = {
    protocol: "rest",
    config,
    rateLimiter: limiter,

    checkEligibility(resource, options) {
      return send(
        { method: "POST", template: "/CoverageEligibilityRequest", path: "/CoverageEligibilityRequest", body: resource, bucket: "eligibility", read: readCoverageEligibilityResponse },
        options,
      );
    },

    async submitClaim(claim, options) {
      const result = await send({ method: "POST", template: "/Claim", path: "/Claim", body: claim, bucket: "claims", read: readClaimResponse }, options);
      const platformId = claimIdFromLocation(result.location) ?? referenceId(result.view.request, "Claim");
      const answer = result.received !== undefined ? { answer: { body: result.received, source: "sync" as const, resource: true } } : {};
      return { ...result, ...answer, ...(platformId ? { platformId } : {}) };
    },

    async readClaim(platformId, options) {
      const result = await send(
        { method: "GET", template: "/Claim/{id}", path: `/Claim/${encodeURIComponent(platformId)}`, bucket: "status", read: (json) => readResource<Claim>(json, "Claim") },
        options,
      );
      const processingStatus = claimProcessingStatus(result.data);
      return { ...result, ...(processingStatus ? { processingStatus } : {}) };
    },

    async searchClaims(query, options) {
      const qs = `patient=${encodeURIComponent(query.patient)}&created=${encodeURIComponent(`ge${query.createdOnOrAfter}`)}`;
      const result = await send({ method: "GET", template: "/Claim?patient=&created=", path: `/Claim?${qs}`, bucket: "status", read: readBundle }, options);
      return { ...result, data: result.data as Bundle<Claim> };
    },

    async readResource(type, id, options) {
      if (!/^[A-Z][A-Za-z]+$/.test(type)) throw new TypeError("readResource: a FHIR resource type is needed");
      return send({ method: "GET", template: `/${type}/{id}`, path: `/${type}/${encodeURIComponent(id)}`, bucket: "status", read: readAsRecord(type as Resource["resourceType"]) }, options);
    },
    async claimResponses(platformId, options) {
      const result = await send(
        {
          method: "GET",
          template: "/ClaimResponse?request=",
          path: `/ClaimResponse?request=${encodeURIComponent(platformId)}`,
          bucket: "status",
          read: readBundle,
        },
        options,
      );
      // Each ClaimResponse of the searchset is read on its own: one we cannot read is a protocol error.
      const responses = bundleResources<ClaimResponse>(result.view, "ClaimResponse").map((json, i) => {
        try {
          return readClaimResponse(json);
        } catch (error) {
          if (!isFhirReadError(error)) throw error;
          throw new PlatformProtocolError({
            status: result.status,
            requestId: result.requestId,
            message: "GET /ClaimResponse?request=: an entry is not a valid FHIR R4 ClaimResponse",
            problems: [`Bundle.entry[${i}].resource ${error.path}: ${error.reason}`],
          });
        }
      });
      return { status: result.status, requestId: result.requestId, data: responses.map((r) => r.raw), views: responses.map((r) => r.view) };
    },

    claimStatus(key, options) {
      return restClaimStatus(client, key, options);
    },

    async sendPaymentNotice(notice, options) {
      const result = await send(
        {
          method: "POST",
          template: "/PaymentNotice",
          path: "/PaymentNotice",
          body: notice,
          bucket: "claims",
          read: readAsRecord("PaymentNotice"),
        },
        options,
      );
      return { status: result.status, requestId: result.requestId, data: result.data };
    },

    processMessage(bundle, bucket, options) {
      return send({ method: "POST", template: "/$process-message", path: "/$process-message", body: bundle, bucket, read: readMessage }, options);
    },

    // ---- decisions 045–048 ----
    async cancel(task, options) {
      const result = await send({ method: "POST", template: "/Task", path: "/Task", body: task, bucket: "claims", read: (json) => readResource<Task>(json, "Task") }, options);
      return { ...result, outcome: cancelOutcomeOf(result.data) };
    },

    async sendCommunication(communication, options) {
      const result = await send(
        {
          method: "POST",
          template: "/Communication",
          path: "/Communication",
          body: communication,
          bucket: "claims",
          read: readAsRecord("Communication"),
        },
        options,
      );
      const platformId = typeof result.data.id === "string" ? result.data.id : undefined;
      return { ...result, ...(platformId ? { platformId } : {}) };
    },

    async accessToken(options = {}) {
      if (options.fresh) tokens.invalidate();
      const token = await tokens.get(options.signal);
      return { expiresAt: token.expiresAt, ...(token.scope ? { scope: token.scope } : {}) };
    },

    stats() {
      return { ...transport.stats, ...counters, tokenRequests: tokens.requests };
    },

    close: () => transport.close(),
  };
  return client;
}

/**
 * Reads an answer as valid R4 of `type` and keeps it as received, as a plain record: for resources
 * the portal stores or routes without a typed view (inbound routing, notices, communications).
 */
function readAsRecord(type: Resource["resourceType"]): (json: unknown) => { view: { notes: string[] }; raw: Record<string, unknown> } {
  return (json) => {
    const read = readResource<Resource>(json, type);
    return { view: read.view, raw: read.raw as unknown as Record<string, unknown> };
  };
}



// The REST client is the rest adapter: it must stay a PlatformPort.
const _restIsPort: (client: PlatformClient) => PlatformPort = (client) => client;
void _restIsPort;

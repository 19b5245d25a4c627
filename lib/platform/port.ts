import type { Bundle, Claim, ClaimResponse, CoverageEligibilityRequest, CoverageEligibilityResponse } from "@medplum/fhirtypes";
import type { BenefitsView, ClaimResponseView, MessageView } from "@/lib/fhir";
import type { CallOptions, PlatformClient, PlatformResult } from "./client";

export type PlatformProtocol = "rest" | "messaging";

/** One poll-request's harvest: the messages (≤ 100) and whether the exchange said more wait. */
export interface PolledMessages {
  messages: MessageView[];
  /** The `queued-messages` meta tag was present: poll again at once. */
  more: boolean;
  requestId: string;
}

/**
 * The one way out to the national platform (DESIGN.md "one port, two protocols"). The outbox, the
 * poller, the screens and the machine APIs use this and never ask which protocol is behind it:
 * `rest` (the spec's endpoints, client.ts) or `messaging` (FHIR message Bundles to
 * `$process-message`, messaging.ts). Answers are the same R4 resources and views either way.
 */
export interface PlatformPort {
  readonly protocol: PlatformProtocol;
  checkEligibility(request: CoverageEligibilityRequest, options?: CallOptions): Promise<PlatformResult<CoverageEligibilityResponse> & { view: BenefitsView }>;
  submitClaim(claim: Claim, options?: CallOptions): Promise<PlatformResult<ClaimResponse> & { view: ClaimResponseView; platformId?: string }>;
  readClaim(platformId: string, options?: CallOptions): Promise<PlatformResult<Claim> & { processingStatus?: string }>;
  searchClaims(query: { patient: string; createdOnOrAfter: string }, options?: CallOptions): Promise<PlatformResult<Bundle<Claim>>>;
  claimResponses(platformId: string, options?: CallOptions): Promise<PlatformResult<ClaimResponse[]> & { views: ClaimResponseView[] }>;
  /**
   * Messaging only: one poll-request for waiting messages (pended answers, CommunicationRequests,
   * PaymentReconciliations). Absent in REST, where the platform pushes webhooks instead.
   */
  pollMessages?(options?: CallOptions & { count?: number }): Promise<PolledMessages>;
  close(): Promise<void>;
}

// The REST client is the rest adapter: it must stay a PlatformPort.
const _restIsPort: (client: PlatformClient) => PlatformPort = (client) => client;
void _restIsPort;

import type { InboundHandlers } from "@/lib/pipeline";
import { advancedAuthorizationInbound } from "@/lib/authorizations";
import { acknowledgementInbound, informationRequestInbound } from "@/lib/information-requests";
import { paymentReconciliationInbound } from "@/lib/payments";
import { evidenceAcknowledgementInbound } from "@/lib/evidence";

/**
 * The composition of inbound routing (lib/pipeline/inbound.ts): what each area does with what the
 * platform sends on its own initiative. The message poller (messaging) and the `resource.available`
 * webhook (REST) both use this one table; the pipeline's ClaimResponse handler is always included.
 * An area adds its handler here, e.g. `CommunicationRequest: informationRequestInbound`.
 */
export const INBOUND_HANDLERS: InboundHandlers = {
  // The inbox (docs/decisions/096) tries the pipeline's own ClaimResponse handler first, then these
  // (first answer other than "unrouted" wins): a payer's unasked approval (docs/decisions/101).
  ClaimResponse: [advancedAuthorizationInbound],
  CommunicationRequest: informationRequestInbound,
  // The payer's acknowledgement of an answer to its request, else of information sent unasked (decision 115).
  Communication: [acknowledgementInbound, evidenceAcknowledgementInbound],
  PaymentReconciliation: paymentReconciliationInbound,
};

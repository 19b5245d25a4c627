import type { InboundHandlers } from "@/lib/pipeline";
import { acknowledgementInbound, informationRequestInbound } from "@/lib/information-requests";
import { paymentReconciliationInbound } from "@/lib/payments";

/**
 * The composition of inbound routing (lib/pipeline/inbound.ts): what each area does with what the
 * platform sends on its own initiative. The message poller (messaging) and the `resource.available`
 * webhook (REST) both use this one table; the pipeline's ClaimResponse handler is always included.
 * An area adds its handler here, e.g. `CommunicationRequest: informationRequestInbound`.
 */
export const INBOUND_HANDLERS: InboundHandlers = {
  // The inbox (docs/decisions/096; advanced authorizations): a payer's unasked approval is a ClaimResponse no submission
  // takes. Its handler goes here, tried after the pipeline's own (several per type, first answer
  // other than "unrouted" wins): `ClaimResponse: [advancedAuthorizationInbound],`
  CommunicationRequest: informationRequestInbound,
  Communication: acknowledgementInbound,
  PaymentReconciliation: paymentReconciliationInbound,
};

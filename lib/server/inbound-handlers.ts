import type { InboundHandler, InboundHandlers } from "@/lib/pipeline";
import { claimResponseInbound } from "@/lib/pipeline";
import { advancedAuthorizationInbound } from "@/lib/authorizations";
import { acknowledgementInbound, informationRequestInbound } from "@/lib/information-requests";
import { paymentReconciliationInbound } from "@/lib/payments";

/**
 * Several handlers for one resource type, tried in order: the first that does not answer
 * "unrouted" wins. (The inbox work makes InboundHandlers take a list per type; until then a
 * ClaimResponse goes to the pipeline's handler — an answer to a submission of ours — and then to
 * the payer's advanced authorization, docs/decisions/101.)
 */
export function firstRouted(...handlers: InboundHandler[]): InboundHandler {
  return async (context, resource) => {
    for (const handler of handlers) {
      const result = await handler(context, resource);
      if (result !== "unrouted") return result;
    }
    return "unrouted";
  };
}

/**
 * The composition of inbound routing (lib/pipeline/inbound.ts): what each area does with what the
 * platform sends on its own initiative. The message poller (messaging) and the `resource.available`
 * webhook (REST) both use this one table; the pipeline's ClaimResponse handler is always included.
 * An area adds its handler here, e.g. `CommunicationRequest: informationRequestInbound`.
 */
export const INBOUND_HANDLERS: InboundHandlers = {
  ClaimResponse: firstRouted(claimResponseInbound, advancedAuthorizationInbound),
  CommunicationRequest: informationRequestInbound,
  Communication: acknowledgementInbound,
  PaymentReconciliation: paymentReconciliationInbound,
};

import type { PlatformPort } from "../port";
import { claimOperations } from "./claims";
import { createMessagingCore, type MessagingDeps } from "./core";
import { statusOperations } from "./status";
import { taskOperations } from "./tasks";

export { stableUuid, type MessagingDeps } from "./core";

/**
 * The messaging adapter of the platform port (docs/decisions/034): every call is one FHIR message Bundle
 * POSTed to `{base}/$process-message` over the REST client's transport (same mTLS agent, token,
 * rate buckets, in-flight cap and HTTP error mapping). Its parts:
 *  - core.ts: the envelope (lib/fhir/messages), refusals before sending (over 10 MB, against the
 *    envelope rules) as the PlatformError the outbox records, the payer a message goes to, reply
 *    matching (MessageHeader.response.identifier, else ClaimResponse.request.identifier) and the
 *    reply's own errors;
 *  - claims.ts: prior authorizations, claims and batch-requests, resent identically;
 *  - status.ts: status checks by our identifier, answered in Task.output (decision 073);
 *  - tasks.ts: eligibility, polls, cancel Tasks, communications, payment notices.
 */
export function createMessagingPlatform(deps: MessagingDeps): PlatformPort {
  const core = createMessagingCore(deps);
  return {
    protocol: "messaging",
    ...claimOperations(core),
    ...statusOperations(core),
    ...taskOperations(core),
    close: () => deps.transport.close(),
  };
}

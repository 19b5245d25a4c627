import type { AnswerStyleSetting } from "./answer-style";
import type { ConformanceTally } from "./conformance-tally";
import type { ClaimsEngine } from "./claims-engine";
import type { Clock } from "./clock";
import type { Faults } from "./faults";
import type { Mailbox } from "./mailbox";
import type { FacilityCertificates } from "./facilities";
import type { Logger } from "./logger";
import type { TokenKeys } from "./oauth";
import type { RegisteredClientCertificate } from "./pki";
import type { RateLimiter } from "./rate-limit";
import type { ReferenceData } from "./reference-data";
import type { SandboxSecrets } from "./secrets";
import type { SandboxStore } from "./store";
import type { WebhookDispatcher } from "./webhooks";

export const CONFORMANCE_LEVELS = ["lenient", "strict"] as const;
export type Conformance = (typeof CONFORMANCE_LEVELS)[number];

/** Everything a route needs, built once by startSandbox. */
export interface SandboxContext {
  baseUrl: () => string;
  providerOrgId: string;
  reference: ReferenceData;
  store: SandboxStore;
  engine: ClaimsEngine;
  webhooks: WebhookDispatcher;
  /** What the platform sends on its own initiative, in both protocols (mailbox.ts). */
  mailbox: Mailbox;
  faults: Faults;
  /** default | national: the form of the answers (sandbox/answer-style.ts). */
  answerStyle: AnswerStyleSetting;
  limiter: RateLimiter;
  rateWindowMs: number;
  clock: Clock;
  logger: Logger;
  secrets: SandboxSecrets;
  tokenKeys: TokenKeys;
  registered: RegisteredClientCertificate;
  /** Facilities' own client certificates and licences (facilities.ts). */
  facilities: FacilityCertificates;
  maxBodyBytes: number;
  /** What the payer does with unasked evidence about a partly approved decision (decision 115). */
  evidenceReissue: "approve" | "off";
  /**
   * strict | lenient (SANDBOX_CONFORMANCE, docs/decisions/072): strict refuses every message the
   * exchange's rule checker finds an error in; lenient refuses only what the sandbox cannot process.
   */
  conformance: Conformance;
  /** The most refills the payer approves on one prescription line (SANDBOX_MAX_REFILLS, docs/decisions/116). */
  maxRefills: number;
  /** The rule checker's verdict on every message received, as counts (GET /_admin/conformance). */
  conformanceTally: ConformanceTally;
  /** Messaging: the claim versions (`id@version`) already answered or handed out by a poll. */
  messageDeliveries: Set<string>;
  /**
   * Messaging: each clinic's last poll reply by its request's MessageHeader id. The same request
   * sent again (after the clinic lost the reply) is answered the same (guide 6.4); a new request
   * is what retires it — what it handed out is then gone from the queue.
   */
  pollReplies: Map<string, { headerId: string; reply: import("./http").Reply }>;
}

import { createHash, randomUUID } from "node:crypto";
import type { Bundle, Organization, Resource } from "@medplum/fhirtypes";
import {
  PORTAL_URI_BASE,
  MessageBuildError,
  MessageTooLargeError,
  answersRequest,
  nphies,
  buildMessage,
  isFhirReadError,
  messageErrorsOf,
  type BuiltMessage,
  type MessageDestination,
  type MessageRequestEvent,
  type MessageView,
} from "@/lib/fhir";
import type { PlatformClient } from "../client";
import type { CallOptions, PlatformResult } from "../port";
import { PlatformError, PlatformProtocolError, PlatformUnavailableError, type RateBucket } from "../errors";
import type { ClaimByIdentifierResolver, KnownClaimsResolver, PayerLicenseResolver, PayerNameResolver, PayerTarget, SentClaimResolver } from "../payer-license";
import type { PartiesResolver } from "../parties";

/**
 * The messaging adapter's plumbing, shared by its parts (claims.ts, status.ts, tasks.ts): the
 * envelope (lib/fhir/messages), refusals before sending, the payer a message goes to, one
 * send-and-check, and reading the focus of a reply.
 */
export interface MessagingDeps {
  transport: PlatformClient;
  providerLicense: string;
  providerOrgId: string;
  /** The sending facility as the exchange profiles it (name, provider type); default: its id and licence. */
  providerFacts?: nphies.ProviderFacts;
  payerLicense: PayerLicenseResolver;
  /** The insurer's name by licence, for the payer Organization a Task names as owner. */
  payerName?: PayerNameResolver;
  /** The platform Claim ids the portal sent for a patient: what "search" can mean without a search (decision 050). */
  knownClaims?: KnownClaimsResolver;
  /** The Claim the portal sent under a platform id, with its identifier: how a status check by identifier finds it (decision 073). */
  sentClaim?: SentClaimResolver;
  /** The Claim the portal holds under our identifier: whose parties a Communication about it carries. */
  claimByIdentifier?: ClaimByIdentifierResolver;
  /** A claim's parties (patient, coverage, provider, insurer): its message is assembled complete (decision 074). */
  parties?: PartiesResolver;
  /** Base of our fullUrls and MessageHeader.source.endpoint (default the portal's FHIR base). */
  sourceEndpoint?: string;
  clock?: () => Date;
}

export type ClaimIdentifier = { system?: string; value: string };

/** A UUID derived from a seed: the same submission always gets the same message ids. */
export function stableUuid(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

export const idOf = (reference: string | undefined, type: string): string | undefined => {
  const m = new RegExp(`(?:^|/)${type}/([A-Za-z0-9\\-.]{1,64})(?:/_history/[^/]+)?$`).exec(reference ?? "");
  return m?.[1];
};

/** A message we would not send (over 10 MB, against the envelope rules) as the PlatformError the outbox records; other errors as they are. */
export function asRefusal(error: unknown, requestId: string): unknown {
  if (error instanceof MessageTooLargeError) {
    return new PlatformError({ status: 413, requestId, field: error.attachment?.path, diagnostics: error.message, resolution: error.message, message: error.message });
  }
  if (error instanceof MessageBuildError) {
    return new PlatformError({ status: 422, requestId, field: error.path, diagnostics: error.reason, message: `The message was not sent: ${error.message}` });
  }
  return error;
}

export function refusedBeforeSending<T>(requestId: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw asRefusal(error, requestId);
  }
}

export type Reply = { view: MessageView; status: number; requestId: string; received?: string };

export interface MessagingCore {
  deps: MessagingDeps;
  clock: () => Date;
  /** Our FHIR base: fullUrls, MessageHeader.source.endpoint, batch identifiers. */
  source: string;
  destinationFor(target: PayerTarget, requestId: string, field: string): Promise<MessageDestination & { payerLicense?: string }>;
  build(init: BuildInit & { requestId: string }): BuiltMessage;
  exchange(init: BuildInit & { bucket: RateBucket; claimIdentifier?: ClaimIdentifier }, options: CallOptions): Promise<PlatformResult<Bundle> & { view: MessageView; headerId: string }>;
  checkReply(view: MessageView, at: { status: number; requestId: string; headerId: string; claimIdentifier?: ClaimIdentifier; errorStatus?: number }): void;
  focusOf<T>(reply: Reply, type: string, read: (json: unknown) => T): T;
  /** The clinic's Organization (requester of Tasks). */
  provider(): Organization;
  /** A payer as a profiled Organization entry named by its licence and, when the portal knows it, its name (owner of Tasks). */
  payer(license: string, id?: string): Promise<Organization>;
}

interface BuildInit {
  event: MessageRequestEvent;
  focus: Resource;
  resources?: Resource[];
  destination: MessageDestination;
  seed?: string;
  timestamp?: Date;
  /** The focus's parties: the message is assembled with them as profiled entries (lib/fhir nphies). */
  parties?: nphies.MessageParties;
}

export function createMessagingCore(deps: MessagingDeps): MessagingCore {
  const { transport } = deps;
  const clock = deps.clock ?? (() => new Date());
  const source = deps.sourceEndpoint ?? PORTAL_URI_BASE;

  async function destinationFor(target: PayerTarget, requestId: string, field: string) {
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
  function build(init: BuildInit & { requestId: string }): BuiltMessage {
    const input = {
      event: init.event,
      focus: init.focus,
      resources: init.resources,
      providerLicense: deps.providerLicense,
      destination: init.destination,
      sourceEndpoint: source,
      timestamp: init.timestamp ?? clock(),
      ...(init.seed ? { bundleId: stableUuid(`${init.seed}|bundle`), headerId: stableUuid(`${init.seed}|header`) } : {}),
    };
    // Every focus goes profiled (decision 074); a claim only with its parties (without them the
    // rule checker, at the exchange, names what is missing).
    const assemble = init.parties || init.focus.resourceType !== "Claim";
    return refusedBeforeSending(init.requestId, () => (assemble ? nphies.assembleMessage({ ...input, ...(init.parties ? { parties: init.parties } : {}) }) : buildMessage(input)));
  }

  /** Throws what a reply says went wrong: it answers another message, a transient error, the exchange's refusal. */
  function checkReply(view: MessageView, at: { status: number; requestId: string; headerId: string; claimIdentifier?: ClaimIdentifier; errorStatus?: number }): void {
    const { status, requestId } = at;
    if (!answersRequest(view, at.headerId, at.claimIdentifier) && view.header.responseTo !== undefined) {
      throw new PlatformProtocolError({ status, requestId, message: "POST /$process-message: the reply answers another message", problems: ["MessageHeader.response.identifier"] });
    }
    if (view.header.responseCode === "transient-error") {
      throw new PlatformUnavailableError({ reason: "server", status, requestId, message: "The national exchange reported a transient error; try again later" });
    }
    // A Task focus is an error only when it carries error outputs: a status check's answer also
    // carries the claim's ClaimResponse, whose own error[] is the adjudication, not a refusal.
    const focusErrors = view.focus.some((f) => f.outcome === "error" || f.resourceType === "OperationOutcome" || (f.resourceType === "Task" && messageErrorsOf(f).length > 0));
    if (view.errors.length > 0 && (focusErrors || view.header.responseCode === "fatal-error" || view.focus.length === 0)) {
      throw PlatformError.fromMessageErrors(view.errors, at.errorStatus ?? status, requestId);
    }
    if (view.header.responseCode === "fatal-error") throw PlatformError.fromMessageErrors([], at.errorStatus ?? status, requestId);
  }

  /** Builds, sends and checks one message; returns the reply with its view. */
  async function exchange(init: BuildInit & { bucket: RateBucket; claimIdentifier?: ClaimIdentifier }, options: CallOptions) {
    const requestId = options.requestId ?? randomUUID();
    const built = build({ ...init, requestId });
    const reply = await transport.processMessage(built.bundle, init.bucket, { ...options, requestId });
    checkReply(reply.view, { status: reply.status, requestId, headerId: built.headerId, claimIdentifier: init.claimIdentifier });
    return { ...reply, requestId, headerId: built.headerId };
  }

  function focusOf<T>(reply: Reply, type: string, read: (json: unknown) => T): T {
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

  return {
    deps,
    clock,
    source,
    destinationFor,
    build,
    exchange,
    checkReply,
    focusOf,
    provider: () => nphies.providerResource(deps.providerFacts ?? { id: deps.providerOrgId, license: deps.providerLicense, name: deps.providerOrgId }),
    // Without a known name the Organization goes without one: the rule checker names what is missing.
    payer: async (license, id) => {
      const name = await deps.payerName?.(license);
      const payer = nphies.insurerResource({ id: id ?? stableUuid(`payer|${license}`), license, name: name ?? "" });
      if (!name) delete payer.name;
      return payer;
    },
  };
}

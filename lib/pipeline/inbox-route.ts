import type { Db } from "@/lib/db";
import { MESSAGE_REPLY_EVENTS, isFhirReadError, readMessage, type MessagePart, type MessageView } from "@/lib/fhir";
import { INBOX_REASONS, focusOf, summarize, type IncomingMessage, type InboxRow, type RouteOutcome } from "@/lib/inbox";
import { routeInbound, type InboundContext, type InboundHandlers } from "./inbound";

/** Events the portal knows how to read (the exchange's reply events); any other is kept and shown, never applied. */
const KNOWN_EVENTS: ReadonlySet<string> = new Set<string>(MESSAGE_REPLY_EVENTS);

/** An event code fit for a reason line (codes are not patient data; anything odd is cut). */
const safeCode = (event: string) => event.replace(/[^\w.:-]/g, "?").slice(0, 64);

/** The message event of a raw message Bundle that did not read (for the page), looked up tolerantly. */
function rawEvent(raw: Record<string, unknown>): string | undefined {
  const entries = Array.isArray(raw.entry) ? (raw.entry as { resource?: { resourceType?: unknown; eventCoding?: { code?: unknown } } }[]) : [];
  const header = entries.find((e) => e?.resource?.resourceType === "MessageHeader")?.resource;
  return typeof header?.eventCoding?.code === "string" ? header.eventCoding.code : undefined;
}

/** One message of a poll reply (or a batch-response) as the inbox stores it: whole, with its view's summary or its read error. */
export function incomingOf(part: MessagePart, source: IncomingMessage["source"], facilityId?: string): IncomingMessage {
  const messageId = part.view?.bundleId ?? (typeof part.raw.id === "string" ? part.raw.id : undefined);
  const event = part.view?.header.event ?? rawEvent(part.raw);
  return {
    source,
    body: part.text ?? JSON.stringify(part.raw),
    ...(messageId ? { messageId } : {}),
    ...(event ? { event: safeCode(event) } : {}),
    ...(facilityId ? { facilityId } : {}),
    summary: part.view ? summarize(focusOf(part.view), part.view) : {},
    ...(part.error ? { unreadable: INBOX_REASONS.unreadable(`${part.error.path}: ${part.error.reason}`) } : {}),
  };
}

export interface InboxRouteDeps {
  db: Db;
  handlers: InboundHandlers;
  clock: () => Date;
  pollAfterMs: number;
  log: (message: string) => void;
  /** Views read when the message arrived (parsed once): by inbox id; after a restart the body is read again. */
  views?: Map<string, MessageView>;
}

/**
 * Routes one stored message: reads it (or takes the view read on arrival), refuses an event the
 * portal does not know (kept as unmatched, never applied blindly), and hands each resource to the
 * inbound handlers. Anything `unrouted` keeps the message as unmatched, with a reason free of
 * patient data.
 */
export async function routeInboxMessage(deps: InboxRouteDeps, row: InboxRow): Promise<RouteOutcome> {
  let resources: Record<string, unknown>[];
  let event = row.event ?? undefined;
  if (row.fetched) {
    // REST: the resource a `resource.available` webhook announced, as read.
    resources = [JSON.parse(row.fetched) as Record<string, unknown>];
  } else if (row.source === "webhook") {
    // A `claim.status.changed` whose receiver died before settling it: the receipt's transaction
    // already made the submission due for a follow-up, which reads and applies the decision.
    return row.event === "claim.status.changed" ? { status: "applied" } : { status: "failed", reason: INBOX_REASONS.neverRead(), retry: false };
  } else {
    let view = deps.views?.get(row.id);
    deps.views?.delete(row.id);
    if (!view) {
      try {
        view = readMessage(JSON.parse(row.body)).view;
      } catch (error) {
        if (isFhirReadError(error)) return { status: "failed", reason: INBOX_REASONS.unreadable(`${error.path}: ${error.reason}`), retry: false };
        if (error instanceof SyntaxError) return { status: "failed", reason: INBOX_REASONS.notJson(), retry: false };
        throw error;
      }
    }
    event = view.header.event ?? event;
    if (!event || !KNOWN_EVENTS.has(event)) return { status: "unmatched", reason: INBOX_REASONS.unknownEvent(safeCode(event ?? "none")) };
    resources = view.focus.length > 0 ? view.focus : view.entries.flatMap((e) => (e.resource && e.resourceType !== "MessageHeader" ? [e.resource] : []));
  }
  const context: InboundContext = {
    db: deps.db,
    clock: deps.clock,
    pollAfterMs: deps.pollAfterMs,
    log: deps.log,
    source: row.source === "webhook" ? "webhook" : "poll",
    ...(event ? { event } : {}),
    messageId: row.messageId,
    inboxId: row.id,
  };
  const unrouted: string[] = [];
  for (const resource of resources) {
    const result = await routeInbound(deps.handlers, context, resource);
    if (result === "unrouted") unrouted.push(typeof resource.resourceType === "string" ? resource.resourceType : "resource");
  }
  if (resources.length === 0) return { status: "unmatched", reason: INBOX_REASONS.empty(event ?? "message") };
  if (unrouted.length > 0) return { status: "unmatched", reason: INBOX_REASONS.matchedNothing(unrouted.join(", "), event ?? "no event") };
  return { status: "applied" };
}

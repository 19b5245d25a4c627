import { submissionForRequest, type InboundHandler } from "@/lib/pipeline";
import { getSubmission, informationRequestAcknowledged, markInformationRequestAcknowledged, noteOnTimeline, recordInformationRequest } from "@/lib/submissions";
import { isFhirReadError, isResourceOf, readCommunicationRequest, readReference } from "@/lib/fhir";

/** The live event kind of an information request (queue, claim page, live board). */
export const INFORMATION_REQUEST_EVENT = "information.request";

/**
 * A payer's CommunicationRequest (poll or webhook): stored once per platform id (deliveries repeat),
 * tied to the claim or authorization it is about, noted on its timeline and announced live. An
 * unreadable one or one about a claim we do not know is `unrouted` (the platform delivers again;
 * logged by type only).
 */
export const informationRequestInbound: InboundHandler = async (context, resource) => {
  let read;
  try {
    read = readCommunicationRequest(resource);
  } catch (error) {
    if (!isFhirReadError(error)) throw error;
    context.log(`[information-requests] a CommunicationRequest that is not valid R4 (${error.path})`);
    return "unrouted";
  }
  const view = read.view;
  if (!view.id) return "unrouted";
  let target: Awaited<ReturnType<typeof submissionForRequest>>;
  for (const about of view.about) {
    if (about.type && about.type !== "Claim") continue;
    target = await submissionForRequest(context.db, about);
    if (target) break;
  }
  if (!target) {
    context.log("[information-requests] a CommunicationRequest about a claim this portal does not know");
    return "unrouted";
  }
  const due = view.due ? new Date(view.due.length === 10 ? `${view.due}T23:59:59Z` : view.due) : undefined;
  const at = context.clock();
  return context.db.transaction(async (tx) => {
    const id = await recordInformationRequest(tx, {
      platformRequestId: view.id!,
      submissionId: target.id,
      asks: view.asks,
      attachmentTypes: view.attachmentTypes,
      dueAt: due && !Number.isNaN(due.getTime()) ? due : null,
      receivedAt: at,
      raw: read.raw as unknown as Record<string, unknown>,
    });
    if (!id) return "unchanged";
    const submission = await getSubmission(tx, target.id);
    await noteOnTimeline(
      tx,
      submission!,
      {
        kind: INFORMATION_REQUEST_EVENT,
        note: "informationRequested",
        source: context.source,
        detail: { event: context.event, ...(context.messageId ? { messageId: context.messageId } : {}) },
        payload: { informationRequestId: id, state: "open", dueAt: due?.toISOString() ?? null },
      },
      at,
    );
    return "applied";
  });
};

/**
 * The payer's acknowledgement of our answer: a Communication `inResponseTo` ours (or based on the
 * request). Marks the request acknowledged, once.
 */
export const acknowledgementInbound: InboundHandler = async (context, resource) => {
  if (!isResourceOf(resource, "Communication")) return "unrouted";
  const refs = [
    ...((resource.inResponseTo as unknown[] | undefined) ?? []).map((r) => ({ r: readReference(r), type: "Communication" })),
    ...((resource.basedOn as unknown[] | undefined) ?? []).map((r) => ({ r: readReference(r), type: "CommunicationRequest" })),
  ];
  const communicationIds = refs.flatMap(({ r, type }) => (type === "Communication" && r?.id ? [r.id] : []));
  const requestIds = refs.flatMap(({ r, type }) => (type === "CommunicationRequest" && r?.id ? [r.id] : []));
  if (communicationIds.length + requestIds.length === 0) return "unrouted";
  const match = await informationRequestAcknowledged(context.db, { communicationIds, requestIds });
  if (!match) {
    context.log("[information-requests] an acknowledgement of a communication this portal did not send");
    return "unrouted";
  }
  if (match.status === "acknowledged") return "unchanged";
  const at = context.clock();
  return context.db.transaction(async (tx) => {
    const updated = await markInformationRequestAcknowledged(tx, match.id, at, resource);
    if (!updated) return "unchanged";
    const submission = await getSubmission(tx, match.submissionId);
    await noteOnTimeline(tx, submission!, { kind: INFORMATION_REQUEST_EVENT, note: "informationAcknowledged", source: context.source, detail: { event: context.event }, payload: { informationRequestId: match.id, state: "acknowledged" } }, at);
    return "applied";
  });
};

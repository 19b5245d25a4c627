import { and, eq, inArray, ne } from "drizzle-orm";
import { evidenceMessages } from "@/lib/db";
import { isResourceOf, readReference } from "@/lib/fhir";
import type { InboundHandler } from "@/lib/pipeline";
import { getSubmission, noteOnTimeline } from "@/lib/submissions";

/**
 * The payer's acknowledgement of information sent unasked (docs/decisions/115): a Communication
 * `inResponseTo` ours. Marks it acknowledged, once, and notes it on the submission's timeline.
 * One it does not know is left to the next handler (`unrouted`).
 */
export const evidenceAcknowledgementInbound: InboundHandler = async (context, resource) => {
  if (!isResourceOf(resource, "Communication")) return "unrouted";
  const ids = ((resource.inResponseTo as unknown[] | undefined) ?? []).flatMap((r) => {
    const ref = readReference(r);
    return ref?.id ? [ref.id] : [];
  });
  if (ids.length === 0) return "unrouted";
  const [match] = await context.db.select().from(evidenceMessages).where(inArray(evidenceMessages.communicationId, ids)).limit(1);
  if (!match) return "unrouted";
  if (match.status === "acknowledged") return "unchanged";
  const at = context.clock();
  return context.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(evidenceMessages)
      .set({ status: "acknowledged", acknowledgedAt: at, acknowledgement: resource })
      .where(and(eq(evidenceMessages.id, match.id), ne(evidenceMessages.status, "acknowledged")))
      .returning({ id: evidenceMessages.id });
    if (!updated) return "unchanged";
    const submission = await getSubmission(tx, match.submissionId);
    await noteOnTimeline(tx, submission!, { kind: "submission.note", note: "evidenceAcknowledged", source: context.source, detail: { event: context.event }, payload: { evidenceId: match.id } }, at);
    return "applied";
  });
};

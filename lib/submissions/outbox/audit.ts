import { describeError } from "@/lib/http";
import { audit, type AuditOutcome } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { Submission } from "../states";

/**
 * Audit entries for what the outbox and the pipeline do on their own (every send and follow-up of
 * a submission is audited; the webhook and the inbound handlers use it too). Records refer to
 * submissions by id — never patient data. Best effort: a failing audit write is reported, and does
 * not undo or repeat the platform call.
 */
export async function auditPipeline(
  db: Db,
  actor: "outbox" | "poller" | "platform-webhook",
  action: string,
  row: Pick<Submission, "id" | "kind">,
  outcome: AuditOutcome,
  details: Record<string, unknown> & { requestId?: string },
  log?: (message: string) => void,
): Promise<void> {
  const { requestId, ...rest } = details;
  try {
    await audit(db, { actor: { kind: "system", name: actor }, action, target: { type: row.kind, id: row.id }, outcome, requestId, details: rest });
  } catch (error) {
    log?.(`[exchange] audit write failed for submission ${row.id}: ${describeError(error)}`);
  }
}

import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { Db, SubmissionStatus, Tx } from "@/lib/db";
import { submissions } from "@/lib/db";
import type { Submission } from "./states";

/** When the pipeline looks at a submission next, and whether it lets go of its lease. */
export interface ScheduleChange {
  nextAttemptAt: Date;
  /** Clears the worker's lease (owner and expiry) in the same write. */
  releaseLease?: boolean;
  /** The last attempt's errors (a send that will be tried again). */
  errors?: Submission["errors"];
  /** Bumps `updated_at` (a retry is news on the lists; a follow-up time is not). */
  updatedAt?: Date;
}

/** Only when these still hold (the lease is still ours; the status is still one we follow up). */
export interface ScheduleGuard {
  leaseOwner?: string;
  statuses?: readonly SubmissionStatus[];
}

/**
 * Moves a submission's next look (outbox retry, poller follow-up, webhook safety net) without
 * changing its status: the one write of the pipeline's timing columns (docs/decisions/062).
 * Returns the row, or undefined when the guard no longer holds.
 */
export async function reschedule(db: Db | Tx, id: string, change: ScheduleChange, guard: ScheduleGuard = {}): Promise<Submission | undefined> {
  const where: SQL[] = [eq(submissions.id, id)];
  if (guard.leaseOwner !== undefined) where.push(eq(submissions.leaseOwner, guard.leaseOwner));
  if (guard.statuses) where.push(inArray(submissions.status, [...guard.statuses]));
  const [row] = await db
    .update(submissions)
    .set({
      nextAttemptAt: change.nextAttemptAt,
      ...(change.releaseLease ? { leaseOwner: null, leaseUntil: null } : {}),
      ...(change.errors !== undefined ? { errors: change.errors } : {}),
      ...(change.updatedAt ? { updatedAt: change.updatedAt } : {}),
    })
    .where(and(...where))
    .returning();
  return row;
}

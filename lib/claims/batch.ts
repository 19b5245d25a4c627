import type { Db, SubmissionStatus } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { batchStatusCounts } from "@/lib/submissions";

/**
 * Batches of "submit selected". No table: each claim of a batch carries the batch id in its
 * `form` (`form.batch`), and the page keeps the id in its URL (`?batch=`), so the progress bar is
 * read from the database and survives a reload. Progress = how many of the batch have left
 * `queued` (reached `sent` or any later / final state).
 */
export interface BatchProgress {
  total: number;
  done: number;
  byStatus: Partial<Record<SubmissionStatus, number>>;
}

const PENDING: readonly SubmissionStatus[] = ["draft", "queued"];

export function progressOf(byStatus: Partial<Record<SubmissionStatus, number>>): BatchProgress {
  let total = 0;
  let done = 0;
  for (const [status, n] of Object.entries(byStatus) as [SubmissionStatus, number][]) {
    total += n;
    if (!PENDING.includes(status)) done += n;
  }
  return { total, done, byStatus };
}

export async function batchProgress(db: Db, batchId: string): Promise<BatchProgress> {
  if (!isUuid(batchId)) return { total: 0, done: 0, byStatus: {} };
  return progressOf(await batchStatusCounts(db, batchId));
}

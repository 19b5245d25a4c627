import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import { auditPipeline } from "./audit";
import { adjudicatedResponse, applyPlatformNews, isDecision, type PlatformStatus } from "./apply";
import { classifyFailure, type ExchangePlatform } from "./platform-port";
import type { Submission } from "./states";
import { metrics } from "@/lib/metrics";
import { CLAIM_PROCESSING_STATUSES, claimProcessingStatus } from "@/lib/fhir";

export interface PollDeps {
  db: Db;
  client: ExchangePlatform;
  clock?: () => Date;
  pollAfterMs: number;
  owner: string;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

function asPlatformStatus(value: string | undefined): PlatformStatus | undefined {
  return (CLAIM_PROCESSING_STATUSES as readonly string[]).includes(value ?? "") ? (value as PlatformStatus) : undefined;
}

/**
 * Follows up a `sent`/`pended` submission the worker leased because nothing was heard of it for
 * POLL_AFTER_MS (a missed webhook) or because a webhook's adjudication fetch failed: reads the
 * Claim's processing status and, once decided, its ClaimResponse. Transient trouble just moves the
 * next look; the poller never gives a submission up.
 */
export async function pollSubmission(deps: PollDeps, row: Submission): Promise<void> {
  const now = () => (deps.clock ?? (() => new Date()))();
  const platformId = row.platformId;
  try {
    if (!platformId) throw new Error("sent submission without platform id");
    const read = await deps.client.readClaim(platformId, { requestId: row.lastRequestId ?? undefined, signal: deps.signal, waitForPermit: true });
    const status = asPlatformStatus(read.processingStatus) ?? claimProcessingStatus(read.data) ?? "queued";
    let response;
    if (isDecision(status)) {
      const responses = await deps.client.claimResponses(platformId, { signal: deps.signal, waitForPermit: true });
      response = adjudicatedResponse(responses.data);
    }
    const applied = await applyPlatformNews(deps, row.id, {
      status,
      response,
      source: "poll",
      detail: { requestId: read.requestId, platformStatus: status },
      retryResponseAt: new Date(now().getTime() + Math.min(deps.pollAfterMs, 5_000)),
    });
    metrics().polls.inc({ result: applied.result === "applied" ? "changed" : "unchanged" });
    if (applied.result === "applied") {
      await auditPipeline(deps.db, "poller", "submission.status", row, "success", { requestId: read.requestId, status }, deps.log);
    }
  } catch (error) {
    const failure = classifyFailure(error);
    metrics().polls.inc({ result: "failed" });
    deps.log?.(`[poller] submission ${row.id}: follow-up failed (${failure.kind}${failure.status ? ` ${failure.status}` : ""}); trying again later`);
    const retryIn = failure.kind === "transient" ? Math.max(failure.retryAfterMs, Math.min(deps.pollAfterMs, 5_000)) : deps.pollAfterMs;
    await deps.db
      .update(submissions)
      .set({ nextAttemptAt: new Date(now().getTime() + retryIn), leaseOwner: null, leaseUntil: null })
      .where(and(eq(submissions.id, row.id), eq(submissions.leaseOwner, deps.owner)));
  }
}

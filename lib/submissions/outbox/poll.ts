import type { Db } from "@/lib/db";
import { auditPipeline } from "./audit";
import { applyPlatformNews, isDecision, type PlatformStatus } from "../apply";
import { classifyFailure } from "./call-failure";
import { type PlatformPort } from "@/lib/platform";
import { decisionRetries } from "./follow-up";
import { reschedule } from "../schedule";
import type { Submission } from "../states";
import { metrics } from "@/lib/metrics";
import { CLAIM_PROCESSING_STATUSES } from "@/lib/fhir";

export interface PollDeps {
  db: Db;
  client: PlatformPort;
  clock?: () => Date;
  pollAfterMs: number;
  owner: string;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

function asPlatformStatus(value: string | undefined): PlatformStatus | undefined {
  return (CLAIM_PROCESSING_STATUSES as readonly string[]).includes(value ?? "") ? (value as PlatformStatus) : undefined;
}

/** How the platform is asked about a submission: our identifier, and its id when it gave one. */
export function keyOf(row: Pick<Submission, "identifierSystem" | "identifierValue" | "platformId">, platformId?: string): { identifier?: { system?: string; value: string }; platformId?: string } {
  const id = platformId ?? row.platformId ?? undefined;
  return {
    ...(row.identifierValue ? { identifier: { ...(row.identifierSystem ? { system: row.identifierSystem } : {}), value: row.identifierValue } } : {}),
    ...(id ? { platformId: id } : {}),
  };
}

/**
 * Follows up a `sent`/`pended` submission the worker leased because nothing was heard of it for
 * POLL_AFTER_MS (a missed webhook) or because a webhook's adjudication fetch failed: reads the
 * Claim's processing status and, once decided, its ClaimResponse. Transient trouble just moves the
 * next look; the poller never gives a submission up.
 */
export async function pollSubmission(deps: PollDeps, row: Submission): Promise<void> {
  const now = () => (deps.clock ?? (() => new Date()))();
  try {
    // Asked by our identifier (and the platform's id when it gave one): decision 073.
    const read = await deps.client.claimStatus(keyOf(row), { requestId: row.lastRequestId ?? undefined, signal: deps.signal, waitForPermit: true });
    const status = asPlatformStatus(read.processingStatus) ?? "queued";
    // The adjudication with the view the port read of it (docs/decisions/078).
    const response = isDecision(status) && read.response && read.responseView ? { raw: read.response, view: read.responseView } : undefined;
    const applied = await applyPlatformNews(deps, row.id, {
      status,
      ...(read.platformId && !row.platformId ? { platformId: read.platformId } : {}),
      response,
      source: "poll",
      detail: { requestId: read.requestId, platformStatus: status },
      // A decision without its ClaimResponse yet: again in seconds, with backoff (follow-up.ts).
      retryResponseAt: isDecision(status) && !response ? decisionRetries().next(row.id, now(), deps.pollAfterMs) : undefined,
    });
    if (applied.result === "applied") decisionRetries().clear(row.id);
    metrics().polls.inc({ result: applied.result === "applied" ? "changed" : "unchanged" });
    if (applied.result === "applied") {
      await auditPipeline(deps.db, "poller", "submission.status", row, "success", { requestId: read.requestId, status }, deps.log);
    }
  } catch (error) {
    const failure = classifyFailure(error);
    metrics().polls.inc({ result: "failed" });
    deps.log?.(`[poller] submission ${row.id}: follow-up failed (${failure.kind}${failure.status ? ` ${failure.status}` : ""}); trying again later`);
    // Transient trouble: again in seconds with backoff (follow-up.ts), or when the platform says.
    const at = now();
    const retryAt =
      failure.kind === "transient"
        ? new Date(Math.max(decisionRetries().next(row.id, at, deps.pollAfterMs).getTime(), at.getTime() + failure.retryAfterMs))
        : new Date(at.getTime() + deps.pollAfterMs);
    await reschedule(deps.db, row.id, { nextAttemptAt: retryAt, releaseLease: true }, { leaseOwner: deps.owner });
  }
}

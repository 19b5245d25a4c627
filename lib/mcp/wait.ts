import { AppError } from "@/lib/errors";
import { INFORMATION_REQUEST_EVENT } from "@/lib/information-requests";
import { liveHub } from "@/lib/pipeline";
import { DECISION_STATUSES, FINAL_STATUSES, audienceFor, type Submission } from "@/lib/submissions";
import type { McpContext } from "./tools";

/** Where waiting stops: a final status, or a failure the outbox gave up on. */
const DONE: ReadonlySet<string> = new Set([...FINAL_STATUSES, "failed"]);
const DECIDED: ReadonlySet<string> = new Set(DECISION_STATUSES);
/** A re-read of the row this often covers an event the hub missed (a lost LISTEN connection). */
const REREAD_MS = 2_000;

/**
 * wait_for_decision: follows one submission on lib/pipeline's live hub (the same events the
 * screens get) and sends each change to the agent as a notification on the call's own stream —
 * the Streamable HTTP transport carries server messages about a request in that request's SSE
 * answer, which needs no session (decision 095). Returns when the submission is done, the payer
 * asks for information, the time runs out or the client goes away.
 */
export async function waitForDecision(ctx: McpContext, submission: Submission, timeoutMs: number, reread: () => Promise<Submission | undefined>) {
  const changes: { at: string; status: string | null; kind: string }[] = [];
  let informationRequested = false;
  let wake = () => {};
  const unsubscribe = await liveHub(ctx.database).subscribe(audienceFor(submission.kind), undefined, (event) => {
    if (event.submissionId !== submission.id) return;
    changes.push({ at: event.at, status: event.status, kind: event.kind });
    if (event.kind === INFORMATION_REQUEST_EVENT) informationRequested = true;
    void ctx.notify({ level: "info", data: { submissionId: submission.id, event: event.kind, status: event.status, at: event.at } }).catch(() => undefined);
    void ctx.progress(changes.length, undefined, `${event.kind}: ${event.status ?? ""}`).catch(() => undefined);
    wake();
  });
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await reread();
      if (!current) throw new AppError("not_found", "The submission is gone.");
      const answer = (decided: boolean) => ({ submissionId: current.id, status: current.status, decided, informationRequested, changes });
      if (DONE.has(current.status) || informationRequested) return answer(DECIDED.has(current.status));
      const left = deadline - Date.now();
      if (left <= 0 || ctx.signal.aborted) return answer(false);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, REREAD_MS));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        ctx.signal.addEventListener("abort", wake, { once: true });
      });
    }
  } finally {
    unsubscribe();
  }
}

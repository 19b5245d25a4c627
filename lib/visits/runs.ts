import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, VisitRunStatus, VisitVerdict, VisitVerdictDetail } from "@/lib/db";
import { eligibilityChecks, queryRows, visitLists, visitRuns, visits } from "@/lib/db";
import { listCoverages } from "@/lib/patients";
import { runEligibilityCheck, type CheckOutcome } from "@/lib/eligibility";
import { emitGeneralLive } from "@/lib/pipeline";
import type { BenefitsView, BenefitCategoryCode } from "@/lib/fhir";
import type { PlatformPort } from "@/lib/platform";
import { serviceCategories, verdictOfBenefits, PROBLEM_VERDICTS } from "./verdict";

/** Who receives a run's live progress (SSE), like the visits area itself. */
export const VISITS_AUDIENCE = ["front_desk", "manager"];
export const VISIT_RUN_EVENT = "visits.run";

type Visit = typeof visits.$inferSelect;
type Run = typeof visitRuns.$inferSelect;

/**
 * A run of a list: every visit not yet checked (or checked with a platform error, or waiting for
 * registration) is put (back) in `waiting` and given to this run. `runAt` in the future schedules
 * it (e.g. the evening before); the worker starts it then.
 */
export async function createRun(db: Db, input: { listId: string; runAt?: Date; createdBy?: string; now?: Date }): Promise<Run> {
  const now = input.now ?? new Date();
  const runAt = input.runAt && input.runAt.getTime() > now.getTime() ? input.runAt : now;
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(visitRuns)
      .values({ listId: input.listId, status: runAt.getTime() > now.getTime() ? "scheduled" : "running", runAt, startedAt: runAt.getTime() > now.getTime() ? null : now, createdBy: input.createdBy ?? null })
      .returning();
    const taken = await tx
      .update(visits)
      .set({ runId: run!.id, checkState: "waiting", leaseOwner: null, leaseUntil: null })
      .where(and(eq(visits.listId, input.listId), or(eq(visits.checkState, "waiting"), inArray(visits.verdict, ["platform_error", "not_registered"]))))
      .returning({ id: visits.id });
    const [updated] = await tx.update(visitRuns).set({ total: taken.length }).where(eq(visitRuns.id, run!.id)).returning();
    await emitRunEvent(tx, updated!, 0, 0);
    return updated!;
  });
}

export async function getRun(db: Db, id: string): Promise<Run | undefined> {
  const [run] = await db.select().from(visitRuns).where(eq(visitRuns.id, id));
  return run;
}

export async function runsOfList(db: Db, listId: string): Promise<Run[]> {
  return db.select().from(visitRuns).where(eq(visitRuns.listId, listId)).orderBy(asc(visitRuns.createdAt));
}

export async function cancelRun(db: Db, id: string): Promise<boolean> {
  const rows = await db.update(visitRuns).set({ status: "cancelled", finishedAt: new Date() }).where(and(eq(visitRuns.id, id), inArray(visitRuns.status, ["scheduled", "running"]))).returning({ id: visitRuns.id });
  return rows.length > 0;
}

/** Checked / problems so far of a run. */
export async function runProgress(db: Db, runId: string): Promise<{ done: number; problems: number }> {
  const [row] = await queryRows<{ done: number; problems: number }>(
    db,
    sql`select count(*) filter (where check_state = 'done')::int as done,
               count(*) filter (where check_state = 'done' and verdict in (${sql.join(PROBLEM_VERDICTS.map((v) => sql`${v}`), sql`, `)}))::int as problems
        from visits where run_id = ${runId}`,
  );
  return { done: Number(row?.done ?? 0), problems: Number(row?.problems ?? 0) };
}

/** A general live event (kind `visits.run`): the run's status and counts — never patient data. */
async function emitRunEvent(db: Db, run: Pick<Run, "id" | "listId" | "status" | "total">, done: number, problems: number): Promise<void> {
  await emitGeneralLive(db, VISIT_RUN_EVENT, VISITS_AUDIENCE, { runId: run.id, listId: run.listId, status: run.status, total: run.total, done, problems });
}

export interface VisitWorkerOptions {
  db: Db;
  port: Pick<PlatformPort, "checkEligibility">;
  providerOrgId: string;
  owner?: string;
  /** Lease per visit (default 30 s), renewed every third while the check is in flight. */
  leaseMs?: number;
  /** Checks in flight at once (default 8; the limiter paces them). */
  concurrency?: number;
  /** Idle poll (default 1 s). */
  pollMs?: number;
  /** Progress events at most this often per run (default 1 s). */
  progressEveryMs?: number;
  now?: () => Date;
}

export interface VisitWorker {
  readonly owner: string;
  /** Stops taking visits, waits for the checks in flight, hands back leases. */
  stop(): Promise<void>;
  /** Platform calls made by this worker (tests: "nobody checked twice"). */
  readonly calls: number;
}

/** Scheduled runs whose time has come start; running runs without waiting visits finish. */
async function advanceRuns(db: Db, now: Date): Promise<void> {
  const started = await db
    .update(visitRuns)
    .set({ status: "running", startedAt: now })
    .where(and(eq(visitRuns.status, "scheduled"), lt(visitRuns.runAt, new Date(now.getTime() + 1))))
    .returning();
  for (const run of started) await emitRunEvent(db, run, 0, 0);
  const finished = await queryRows<{ id: string }>(
    db,
    sql`update visit_runs r set status = 'done', finished_at = ${now.toISOString()}::timestamptz
        where r.status = 'running' and not exists (select 1 from visits v where v.run_id = r.id and v.check_state = 'waiting')
        returning r.id`,
  );
  for (const { id } of finished) {
    const run = await getRun(db, id);
    if (!run) continue;
    const progress = await runProgress(db, id);
    await emitRunEvent(db, run, progress.done, progress.problems);
  }
}

/**
 * Takes up to `limit` waiting visits of running runs for `owner` until `now + leaseMs`
 * (FOR UPDATE SKIP LOCKED, like the outbox's lease in lib/submissions/lease.ts): several workers
 * never take the same visit, and a crashed worker's visits come back when its lease runs out.
 */
export async function leaseVisits(db: Db, owner: string, now: Date, leaseMs: number, limit: number): Promise<Visit[]> {
  if (limit <= 0) return [];
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: visits.id })
      .from(visits)
      .innerJoin(visitRuns, eq(visitRuns.id, visits.runId))
      .where(and(eq(visitRuns.status, "running"), eq(visits.checkState, "waiting"), or(isNull(visits.leaseUntil), lt(visits.leaseUntil, now))))
      .orderBy(asc(visitRuns.runAt), asc(visits.serviceDate), asc(visits.line))
      .limit(limit)
      .for("update", { of: visits, skipLocked: true });
    return tx
      .update(visits)
      .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs), attempts: sql`${visits.attempts} + 1` })
      .where(inArray(visits.id, due))
      .returning();
  });
}

function verdictOfOutcome(outcome: CheckOutcome, services: readonly string[], threshold: number): { verdict: VisitVerdict; detail: VisitVerdictDetail; checkId?: string } {
  switch (outcome.kind) {
    case "answered": {
      const view = outcome.check.benefits as BenefitsView | undefined;
      const judged = view ? verdictOfBenefits(view, services, threshold) : { verdict: outcome.check.outcome === "in_force" ? ("in_force" as const) : ("not_in_force" as const), detail: { problems: [] } };
      return { ...judged, checkId: outcome.check.id };
    }
    case "rejected":
      return {
        verdict: outcome.code === "ERR-002" ? "no_coverage" : "platform_error",
        detail: { problems: [{ verdict: outcome.code === "ERR-002" ? "no_coverage" : "platform_error" }], ...(outcome.code ? { errorCode: outcome.code } : {}) },
        checkId: outcome.check.id,
      };
    case "invalid":
      return { verdict: "no_coverage", detail: { problems: [{ verdict: "no_coverage" }], reason: "coverage_unknown" } };
    case "rate_limited":
      return { verdict: "platform_error", detail: { problems: [{ verdict: "platform_error" }], reason: `rate_limited_${outcome.source}` } };
    default:
      return { verdict: "platform_error", detail: { problems: [{ verdict: "platform_error" }], reason: outcome.reason } };
  }
}

/** A check already stored under the attempt's identifier (a crash after the answer, before the visit was updated). */
async function storedAnswer(db: Db, identifier: string, services: readonly string[], threshold: number) {
  const [row] = await db.select().from(eligibilityChecks).where(eq(eligibilityChecks.identifierValue, identifier)).limit(1);
  if (!row) return undefined;
  if (row.outcome === "rejected")
    return { verdict: row.errorCode === "ERR-002" ? ("no_coverage" as const) : ("platform_error" as const), detail: { problems: [], ...(row.errorCode ? { errorCode: row.errorCode } : {}) }, checkId: row.id };
  const view = row.responseView as BenefitsView | null;
  const judged = view ? verdictOfBenefits(view, services, threshold) : { verdict: row.inforce ? ("in_force" as const) : ("not_in_force" as const), detail: { problems: [] } };
  return { ...judged, checkId: row.id };
}

/**
 * The batch worker: started at boot next to the pipeline (startPipeline). Visits are checked through the
 * platform port at `batch` priority (the shared limiter keeps the interactive share free and
 * lets waiting interactive callers go first). A visit is `done` once; a restart resumes with the
 * visits still waiting, and an attempt interrupted after the platform answered is completed from
 * the stored answer (found by the request identifier written before sending).
 */
export function startVisitWorker(options: VisitWorkerOptions): VisitWorker {
  const { db } = options;
  const owner = options.owner ?? `visits-${process.pid}-${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 30_000;
  const concurrency = options.concurrency ?? 8;
  const pollMs = options.pollMs ?? 1_000;
  const progressEveryMs = options.progressEveryMs ?? 1_000;
  const now = options.now ?? (() => new Date());
  const inFlight = new Map<string, Promise<void>>();
  const lastProgress = new Map<string, number>();
  const thresholds = new Map<string, number>();
  let stopped = false;
  let calls = 0;
  let wake: (() => void) | undefined;

  const heartbeat = setInterval(() => {
    const ids = [...inFlight.keys()];
    if (ids.length === 0) return;
    void db
      .update(visits)
      .set({ leaseUntil: new Date(now().getTime() + leaseMs) })
      .where(and(inArray(visits.id, ids), eq(visits.leaseOwner, owner)))
      .catch(() => undefined);
  }, Math.max(250, Math.floor(leaseMs / 3)));
  heartbeat.unref?.();

  async function thresholdOf(listId: string): Promise<number> {
    let value = thresholds.get(listId);
    if (value === undefined) {
      const [row] = await db.select({ t: visitLists.lowThresholdPercent }).from(visitLists).where(eq(visitLists.id, listId));
      value = row?.t ?? 20;
      thresholds.set(listId, value);
    }
    return value;
  }

  async function progress(runId: string, force = false): Promise<void> {
    const at = performance.now();
    if (!force && at - (lastProgress.get(runId) ?? -Infinity) < progressEveryMs) return;
    lastProgress.set(runId, at);
    const run = await getRun(db, runId);
    if (!run) return;
    const p = await runProgress(db, runId);
    await emitRunEvent(db, run, p.done, p.problems);
  }

  async function check(visit: Visit): Promise<void> {
    const threshold = await thresholdOf(visit.listId);
    let result: { verdict: VisitVerdict; detail: VisitVerdictDetail; checkId?: string } | undefined;
    if (visit.checkIdentifier) result = await storedAnswer(db, visit.checkIdentifier, visit.services, threshold);
    if (!result && !visit.patientId) result = { verdict: "not_registered", detail: { problems: [{ verdict: "not_registered" }] } };
    let coverageId: string | undefined;
    if (!result && visit.patientId) {
      const covs = await listCoverages(db, visit.patientId);
      coverageId = (visit.insurerId ? covs.find((c) => c.insurerId === visit.insurerId) : covs[0])?.id;
      if (!coverageId && covs.length === 0) {
        // No coverage on file: a discovery (guide 7.1, Table 36) asks the visit's insurer, else every
        // insurer; a coverage found is registered by the desk from the check (one click). Not
        // counted in `calls` (checks of a registered coverage).
        const outcome = await runEligibilityCheck(
          { db, client: options.port, providerOrgId: options.providerOrgId, batch: true },
          { actor: { kind: "system", name: "visits-batch" } },
          { patientId: visit.patientId, coverageId: "", insurerId: visit.insurerId ?? "", servicedDate: visit.serviceDate, purposes: ["benefits", "validation"], categories: [] },
        );
        const found = outcome.kind === "answered" && (outcome.check.benefits?.discovered?.length ?? 0) > 0;
        const checkId = outcome.kind === "answered" || outcome.kind === "rejected" ? outcome.check.id : undefined;
        result = { verdict: "no_coverage", detail: { problems: [{ verdict: "no_coverage" }], reason: found ? "coverage_discovered" : "no_coverage_registered" }, ...(checkId ? { checkId } : {}) };
      } else if (!coverageId) result = { verdict: "no_coverage", detail: { problems: [{ verdict: "no_coverage" }], reason: "no_coverage_registered" } };
    }
    if (!result && visit.patientId && coverageId) {
      const identifierValue = randomUUID();
      // Written before anything leaves: a crash after the platform's answer is completed from the stored check.
      await db.update(visits).set({ checkIdentifier: identifierValue, attemptedAt: now() }).where(and(eq(visits.id, visit.id), eq(visits.leaseOwner, owner)));
      calls++;
      const outcome = await runEligibilityCheck(
        { db, client: options.port, providerOrgId: options.providerOrgId, batch: true, identifierValue },
        { actor: { kind: "system", name: "visits-batch" } },
        {
          patientId: visit.patientId,
          coverageId,
          servicedDate: visit.serviceDate,
          purposes: ["benefits", "validation"],
          categories: [...new Set(serviceCategories(visit.services).map((s) => s.category as BenefitCategoryCode))],
        },
      );
      result = verdictOfOutcome(outcome, visit.services, threshold);
    }
    await db
      .update(visits)
      .set({ checkState: "done", verdict: result!.verdict, verdictDetail: result!.detail, checkId: result!.checkId ?? null, checkedAt: now(), leaseOwner: null, leaseUntil: null })
      .where(and(eq(visits.id, visit.id), eq(visits.leaseOwner, owner), eq(visits.checkState, "waiting")));
    if (visit.runId) await progress(visit.runId);
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        await advanceRuns(db, now());
        const room = concurrency - inFlight.size;
        const leased = stopped ? [] : await leaseVisits(db, owner, now(), leaseMs, room);
        for (const visit of leased) {
          const job = check(visit)
            .catch(() => {
              // Left leased: it comes back when the lease runs out.
            })
            .finally(() => {
              inFlight.delete(visit.id);
              wake?.();
            });
          inFlight.set(visit.id, job);
        }
        if (leased.length === 0 || inFlight.size >= concurrency) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, inFlight.size >= concurrency ? 60_000 : pollMs);
            wake = () => {
              clearTimeout(timer);
              wake = undefined;
              resolve();
            };
          });
        }
      } catch {
        await new Promise((r) => setTimeout(r, pollMs));
      }
    }
  }
  const running = loop();

  return {
    owner,
    get calls() {
      return calls;
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await Promise.allSettled([...inFlight.values()]);
      clearInterval(heartbeat);
      await db.update(visits).set({ leaseOwner: null, leaseUntil: null }).where(eq(visits.leaseOwner, owner));
      for (const runId of lastProgress.keys()) await progress(runId, true).catch(() => undefined);
    },
  };
}

export type { VisitRunStatus };

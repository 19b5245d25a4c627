import { consumeRate, consumeRateFast, rateHeaders } from "@/lib/api-access";
import type { RateDecision } from "@/lib/api-access";
import { audit, type AuditActor } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { describeError, contextFromHeaders } from "@/lib/http";
import { lineWriter } from "@/lib/log";
import { AppError, renderError, type ErrorStyle } from "@/lib/errors";

/**
 * THE inbound-API kernel (docs/decisions/031-error-catalogue-and-api-kernel.md): every machine API
 * call — exchange API, gateway, /v1, /oauth/token — runs through `runApi`:
 *   request context (id, IP through TRUSTED_PROXIES) → checks before authentication → the
 *   family's authentication strategy (401) → its rate bucket (429) → the work → one audit entry →
 *   errors rendered in the family's style (lib/errors/catalogue.ts).
 * It never lets an exception out: an unexpected one is logged by name and code only (a failed
 * query's message quotes its parameters) and answered 500 `internal` with the request id.
 */

/** What an authentication strategy resolved: who calls, how the audit names them, their rate bucket. */
export interface Authenticated<P> {
  principal: P;
  actor: AuditActor;
  /** Omitted: the call is not rate-limited here (the work may count it itself). */
  rate?: { bucket: string; limit: number; windowMs?: number; fast?: boolean };
}

/** A refused authentication: the error to answer and, when known, who tried (for the audit). */
export interface AuthRefusal {
  error: AppError;
  actor?: AuditActor;
  details?: Record<string, unknown>;
}

/** One strategy per family: org JWT, API key or OAuth bearer, gateway token, none (OAuth token endpoint). */
export type AuthStrategy<P> = (request: Request, db: Db, now: Date) => Promise<{ ok: true; value: Authenticated<P> } | ({ ok: false } & AuthRefusal)>;

/** A family of endpoints: its name (log component, anonymous audit label), style and strategy. */
export interface ApiFamily<P> {
  name: string;
  style: ErrorStyle;
  db: () => Promise<Db>;
  authenticate: AuthStrategy<P>;
  now?: () => Date;
  /** Default: the portal log (lib/log); lines carry ids and codes only. */
  warn?: (line: string) => void;
  /** Refusals before authentication (a misconfiguration, credentials in the URL): throw AppError. */
  precheck?: (request: Request) => void;
  /** The actions that count toward the caller's concurrency guard (CALLER_CONCURRENCY); none when omitted. */
  guarded?: (action: string) => boolean;
}

/** One authenticated call, handed to the work. */
export interface ApiCall<P> {
  db: Db;
  principal: P;
  actor: AuditActor;
  requestId: string;
  ip?: string;
  now: Date;
  /**
   * Filled by the work: the audit action (preset), target and patient-free details. `recorded`: the
   * work wrote this call's entry itself, in its own transaction (the submission intake), so a
   * success gets no second one here.
   */
  audit: { action: string; target?: { type: string; id: string }; details: Record<string, unknown>; recorded?: boolean };
  /** Replace the audit actor once the work knows more (the OAuth client behind a token request). */
  setActor(actor: AuditActor): void;
}

/**
 * The fairness guard (docs/decisions/093): at most this many of one caller's heavy calls — the
 * actions its family names in `guarded` (claim submissions, visit lists), sent with a body — run
 * at once in this process, per caller (organization, gateway token, API key or user); the next
 * one is answered 429 + Retry-After at once, before its body is read. With the size limits
 * (lib/fhir CLAIM_LIMITS) and the work yielding to the event loop, no caller can hold the server
 * for more than a bounded time. Eligibility checks are not guarded: their cost is the platform's
 * round trip, kept under the clinic's shared quota.
 */
export const CALLER_CONCURRENCY = 4;
/** Seconds a caller refused by the guard is told to wait. */
export const CALLER_RETRY_AFTER_SECONDS = 1;

const IN_FLIGHT_KEY = Symbol.for("clinic-exchange.api.in-flight");
/** Calls in progress per caller, shared by every route bundle of the process. */
function inFlight(): Map<string, number> {
  const g = globalThis as { [IN_FLIGHT_KEY]?: Map<string, number> };
  return (g[IN_FLIGHT_KEY] ??= new Map());
}

/** The caller a guard slot belongs to; anonymous calls have none (their rate bucket counts them). */
function callerKey(family: string, actor: AuditActor): string | undefined {
  if (actor.kind === "api" || actor.kind === "user") return `${family}|${actor.kind}|${actor.id}`;
  return undefined;
}

/** Takes a slot for the caller or throws 429; returns the release. */
function enterGuard(key: string | undefined, limit = CALLER_CONCURRENCY): () => void {
  if (!key) return () => undefined;
  const map = inFlight();
  const current = map.get(key) ?? 0;
  if (current >= limit) {
    throw new AppError("rate_limited", `This client already has ${current} requests in progress (at most ${limit} at once); retry in ${CALLER_RETRY_AFTER_SECONDS} s.`, {
      reason: "concurrency",
      extra: { retryAfterSeconds: CALLER_RETRY_AFTER_SECONDS, concurrency: limit },
      headers: { "Retry-After": String(CALLER_RETRY_AFTER_SECONDS) },
    });
  }
  map.set(key, current + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (map.get(key) ?? 1) - 1;
    if (left <= 0) map.delete(key);
    else map.set(key, left);
  };
}

const hasBody = (request: Request) => request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS";

function outcomeOf(status: number): "success" | "denied" | "failure" {
  if (status < 400) return "success";
  return status === 401 || status === 403 || status === 429 ? "denied" : "failure";
}

/** An anonymous strategy: for endpoints that authenticate inside the work (POST /oauth/token). */
export function anonymous(label: string): AuthStrategy<undefined> {
  return async () => ({ ok: true, value: { principal: undefined, actor: { kind: "anonymous", label } } });
}

export async function runApi<P>(family: ApiFamily<P>, action: string, request: Request, work: (call: ApiCall<P>) => Promise<Response>): Promise<Response> {
  const { requestId, ip } = contextFromHeaders(request.headers);
  const base: Record<string, string> = { "X-Request-ID": requestId };
  const warn = family.warn ?? lineWriter("warn");
  const anonymousActor: AuditActor = { kind: "anonymous", label: family.name };
  let db: Db | undefined;
  let call: ApiCall<P> | undefined;
  let limitHeaders: Record<string, string> = {};
  let refusedActor: AuditActor | undefined;
  let refusedDetails: Record<string, unknown> = {};
  let release: () => void = () => undefined;
  const record = async (status: number, reason: string | undefined) => {
    if (!db) return;
    if (call?.audit.recorded && status < 400) return;
    await audit(db, {
      actor: call?.actor ?? refusedActor ?? anonymousActor,
      action: call?.audit.action ?? action,
      target: call?.audit.target,
      outcome: outcomeOf(status),
      requestId,
      ip,
      details: { status, ...(reason ? { reason } : {}), ...refusedDetails, ...call?.audit.details },
    });
  };
  try {
    try {
      db = await family.db();
      family.precheck?.(request);
      const now = (family.now ?? (() => new Date()))();
      const auth = await family.authenticate(request, db, now);
      if (!auth.ok) {
        refusedActor = auth.actor;
        refusedDetails = auth.details ?? {};
        throw auth.error;
      }
      const { principal, actor, rate } = auth.value;
      let decision: RateDecision | undefined;
      if (rate) {
        const rule = { limit: rate.limit, windowMs: rate.windowMs ?? 60_000 };
        decision = await (rate.fast ? consumeRateFast : consumeRate)(db, rate.bucket, rule, now);
        limitHeaders = rateHeaders(decision);
      }
      if (decision && !decision.allowed) {
        refusedActor = actor;
        throw new AppError("rate_limited", `Rate limit of ${decision.limit} requests per minute reached; retry in ${decision.retryAfterSeconds} s.`, {
          reason: "rate_limited",
          extra: { retryAfterSeconds: decision.retryAfterSeconds },
        });
      }
      if (family.guarded?.(action) && hasBody(request)) {
        refusedActor = actor;
        release = enterGuard(callerKey(family.name, actor));
        refusedActor = undefined;
      }
      const current: ApiCall<P> = {
        db,
        principal,
        actor,
        requestId,
        ip,
        now,
        audit: { action, details: {} },
        setActor: (next) => {
          current.actor = next;
        },
      };
      call = current;
      const response = await work(current);
      for (const [k, v] of Object.entries({ ...base, ...limitHeaders })) response.headers.set(k, v);
      await record(response.status, undefined);
      return response;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const response = renderError(error, family.style, { ...base, ...limitHeaders });
      await record(error.status, error.reason ?? error.code);
      return response;
    }
  } catch (error) {
    // Name and database code only: a failed query's message quotes its parameters (patient data).
    warn(`[${family.name}] ${call?.audit.action ?? action} failed, request ${requestId}: ${describeError(error)}`);
    refusedDetails = {};
    if (call) call.audit.details = {};
    await record(500, "internal").catch(() => undefined);
    return renderError(new AppError("internal", `Internal error; quote request id ${requestId}.`), family.style, base);
  } finally {
    release();
  }
}

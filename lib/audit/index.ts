import { and, desc, eq, gte, ilike, lt, or, type SQL } from "drizzle-orm";
import type { Db, AuditOutcome } from "@/lib/db";
import { auditEvents } from "@/lib/db";
import { noteJunk } from "@/lib/http";

export type { AuditOutcome };

export type AuditActor =
  | { kind: "user"; id: string; email: string; roles: readonly string[] }
  | { kind: "system"; name: string }
  | { kind: "api"; id: string; name: string }
  | { kind: "anonymous"; label?: string };

/** The audit actor of a staff user — the one place this literal is written. */
export function actorOf(user: { id: string; email: string; roles: readonly string[] }): AuditActor {
  return { kind: "user", id: user.id, email: user.email, roles: user.roles };
}

/**
 * Who acts — a staff member, an API client or the system — as audit entries and "done by" columns
 * name them; never patient data. The one caller type of every service (docs/decisions/063).
 */
export interface Caller {
  actor: AuditActor;
  /** The staff member's user id (stored as created_by / checked_by); absent for API and system callers. */
  userId?: string;
  /** Shown as "checked by" and the like. */
  userName?: string;
  requestId?: string;
  ip?: string;
}

export interface AuditEntry {
  actor: AuditActor;
  /** Dotted verb, e.g. `auth.sign_in`, `user.create`, `claim.submit`. */
  action: string;
  target?: { type: string; id: string };
  outcome: AuditOutcome;
  requestId?: string;
  ip?: string;
  /** Never patient identifiers, names or attachment data: refer to records by id. */
  details?: Record<string, unknown>;
  at?: Date;
}

function actorColumns(actor: AuditActor) {
  switch (actor.kind) {
    case "user":
      return { actorKind: "user", actorId: actor.id, actorLabel: actor.email, actorRoles: [...actor.roles] };
    case "system":
      return { actorKind: "system", actorId: null, actorLabel: actor.name, actorRoles: [] };
    case "api":
      return { actorKind: "api", actorId: actor.id, actorLabel: actor.name, actorRoles: [] };
    case "anonymous":
      return { actorKind: "anonymous", actorId: null, actorLabel: actor.label ?? null, actorRoles: [] };
  }
}

/**
 * Appends one entry to the audit log. Every feature records through this function; it is the
 * only writer of audit_events.
 */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    ...actorColumns(entry.actor),
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    outcome: entry.outcome,
    requestId: entry.requestId ?? null,
    ip: entry.ip ?? null,
    details: entry.details ?? null,
    ...(entry.at ? { at: entry.at } : {}),
  });
}

/**
 * A refused authentication or signature (docs/decisions/094): a webhook whose signature does not
 * verify, a /api/metrics call without the right token, the edge's origin and server-action
 * refusals. Each is audited once, as `denied`, through audit() — never the request's body or any
 * patient data, only the reason and the route. The log is not told per request: a burst would
 * flood it (or be used to), so the refusal is counted as junk — a debug line each at
 * LOG_LEVEL=debug, one info line a minute with the counts (lib/http noteJunk). The write never
 * throws: a refusal is answered whether or not the audit could be written.
 */
export interface RefusalAudit {
  actor?: AuditActor;
  /** Dotted verb, e.g. `webhook.signature_refused`, `metrics.unauthorized`. */
  action: string;
  /** The junk kind it is counted as in the log (letters only), e.g. `WebhookSignature`. */
  junk: string;
  requestId?: string;
  ip?: string;
  details: Record<string, unknown>;
}

export async function auditRefusal(db: Db, entry: RefusalAudit): Promise<boolean> {
  noteJunk(entry.junk);
  try {
    await audit(db, { actor: entry.actor ?? { kind: "anonymous" }, action: entry.action, outcome: "denied", requestId: entry.requestId, ip: entry.ip, details: entry.details });
    return true;
  } catch {
    noteJunk("AuditWriteFailed");
    return false;
  }
}

export interface AuditQuery {
  action?: string;
  actor?: string;
  outcome?: AuditOutcome;
  from?: Date;
  /** Exclusive upper bound. */
  to?: Date;
  /** Keyset cursor: the (at, id) of the last row of the previous page. */
  before?: { at: Date; id: number };
  limit?: number;
}

export type AuditRow = typeof auditEvents.$inferSelect;

/** Newest first, keyset-paginated so deep pages cost the same as the first. */
export async function listAuditEvents(db: Db, q: AuditQuery): Promise<{ rows: AuditRow[]; next?: { at: Date; id: number } }> {
  const limit = Math.min(Math.max(q.limit ?? 50, 1), 200);
  const where: SQL[] = [];
  if (q.action) where.push(eq(auditEvents.action, q.action));
  if (q.actor) where.push(ilike(auditEvents.actorLabel, `%${q.actor.replace(/[\\%_]/g, "\\$&")}%`));
  if (q.outcome) where.push(eq(auditEvents.outcome, q.outcome));
  if (q.from) where.push(gte(auditEvents.at, q.from));
  if (q.to) where.push(lt(auditEvents.at, q.to));
  if (q.before) {
    where.push(
      or(lt(auditEvents.at, q.before.at), and(eq(auditEvents.at, q.before.at), lt(auditEvents.id, q.before.id)))!,
    );
  }
  const rows = await db
    .select()
    .from(auditEvents)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last ? { at: last.at, id: last.id } : undefined };
}

/** The distinct actions recorded so far, for the filter list. */
export async function auditActions(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditEvents.action }).from(auditEvents).orderBy(auditEvents.action);
  return rows.map((r) => r.action);
}
export { cursorParam, parseAuditFilters } from "./filters";
export type { AuditFilters } from "./filters";

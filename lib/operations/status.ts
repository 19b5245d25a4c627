/**
 * The facts of Settings → System status and of the outbox gauges in /api/metrics. Database facts
 * cover the whole installation (all instances); platform call figures are this instance's last hour.
 * Each figure carries a tone (ok, warn, bad) so the page can say what to do when it is not ok.
 */
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database, type Db } from "@/lib/db";
import { env } from "@/lib/env";
import { metrics, recentCalls, type CallSummary } from "@/lib/metrics";
import { PLATFORM_RATE_LIMITS, describePlatform } from "@/lib/platform";
import { shutdownState } from "@/lib/http";

export type Tone = "ok" | "warn" | "bad";

export interface SystemStatus {
  at: string;
  outbox: { byState: Record<string, number>; oldestQueuedSeconds: number | null; tone: Tone };
  calls: (CallSummary & { tone: Tone })[];
  rate: { group: string; used: number; limit: number; tone: Tone }[];
  webhook: { lastAt: string | null; ageSeconds: number | null; tone: Tone };
  poller: { backlog: number; tone: Tone };
  certificates: { facility: string; subject?: string; notAfter?: string; daysLeft?: number; error?: string; tone: Tone }[];
  database: { kind: "pglite" | "postgres"; sizeBytes: number | null; migrations: number; lastMigrationAt: string | null };
  build: { version: string };
  draining: boolean;
}

type Row = Record<string, unknown>;
const rows = (db: Db, query: SQL) => queryRows<Row>(db, query);

const STATES = ["draft", "queued", "sent", "pended", "complete", "partial", "denied", "rejected", "failed", "cancelled"];

export async function outboxFacts(db: Db, now = new Date()) {
  const counts = await rows(db, sql`select status, count(*)::int as n from submissions group by status`);
  const byState = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<string, number>;
  for (const r of counts) byState[String(r.status)] = Number(r.n);
  const [oldest] = await rows(db, sql`select min(created_at) as at from submissions where status = 'queued'`);
  const oldestAt = oldest?.at ? new Date(oldest.at as string) : undefined;
  const oldestQueuedSeconds = oldestAt ? Math.max(0, Math.round((now.getTime() - oldestAt.getTime()) / 1000)) : null;
  const [backlog] = await rows(db, sql`select count(*)::int as n from submissions where status in ('sent', 'pended') and next_attempt_at <= ${now.toISOString()}::timestamptz`);
  return { byState, oldestQueuedSeconds, pollerBacklog: Number(backlog?.n ?? 0) };
}

export async function rateFacts(db: Db, now = new Date()) {
  const since = new Date(now.getTime() - 60_000).toISOString();
  const used = await rows(db, sql`select bucket, count(*)::int as n from platform_rate_permits where at > ${since}::timestamptz group by bucket`);
  return (Object.keys(PLATFORM_RATE_LIMITS) as (keyof typeof PLATFORM_RATE_LIMITS)[]).map((group) => ({
    group,
    used: Number(used.find((r) => r.bucket === group)?.n ?? 0),
    limit: PLATFORM_RATE_LIMITS[group],
  }));
}

/** Updates the database-backed gauges of /api/metrics (called on each scrape). */
export async function refreshGauges(db: Db, now = new Date()): Promise<void> {
  const m = metrics();
  const outbox = await outboxFacts(db, now);
  for (const [state, n] of Object.entries(outbox.byState)) m.outboxDepth.set({ state }, n);
  m.outboxOldest.set(outbox.oldestQueuedSeconds ?? 0);
  m.pollerBacklog.set(outbox.pollerBacklog);
  for (const r of await rateFacts(db, now)) {
    m.rateUse.set({ group: r.group }, r.used);
    m.rateLimit.set({ group: r.group }, r.limit);
  }
}

async function databaseFacts(database: Database): Promise<SystemStatus["database"]> {
  let sizeBytes: number | null = null;
  try {
    const [size] = await rows(database.db, sql`select pg_database_size(current_database())::bigint as n`);
    sizeBytes = Number(size?.n ?? 0);
  } catch {
    sizeBytes = null;
  }
  let migrations = 0;
  let lastMigrationAt: string | null = null;
  try {
    const [m] = await rows(database.db, sql`select count(*)::int as n, max(created_at)::bigint as at from drizzle.__drizzle_migrations`);
    migrations = Number(m?.n ?? 0);
    lastMigrationAt = m?.at ? new Date(Number(m.at)).toISOString() : null;
  } catch {
    // No migrations table yet.
  }
  return { kind: database.kind, sizeBytes, migrations, lastMigrationAt };
}

const toneAbove = (value: number, warn: number, bad: number): Tone => (value >= bad ? "bad" : value >= warn ? "warn" : "ok");

export async function systemStatus(database: Database, now = new Date()): Promise<SystemStatus> {
  const db = database.db;
  const outbox = await outboxFacts(db, now);
  const [webhook] = await rows(db, sql`select max(received_at) as at from webhook_receipts`);
  const lastAt = webhook?.at ? new Date(webhook.at as string) : undefined;
  const webhookAge = lastAt ? Math.round((now.getTime() - lastAt.getTime()) / 1000) : null;
  // Claims waiting for news while no webhook came for 15 minutes suggests the platform cannot reach us.
  const waiting = outbox.byState.sent! + outbox.byState.pended!;
  const webhookTone: Tone = waiting > 0 && (webhookAge === null || webhookAge > 900) ? "warn" : "ok";
  const platform = describePlatform({ now });
  const certificates: SystemStatus["certificates"] = [];
  if (platform.configured) {
    const c = platform.certificate;
    certificates.push(
      "error" in c
        ? { facility: platform.providerOrgId, error: c.error, tone: "bad" }
        : { facility: platform.providerOrgId, subject: c.subject, notAfter: c.notAfter.toISOString(), daysLeft: c.daysLeft, tone: c.expired ? "bad" : c.expiresSoon ? "warn" : "ok" },
    );
  }
  return {
    at: now.toISOString(),
    outbox: {
      byState: outbox.byState,
      oldestQueuedSeconds: outbox.oldestQueuedSeconds,
      tone: outbox.byState.failed! > 0 ? "bad" : toneAbove(outbox.oldestQueuedSeconds ?? 0, 300, 1800),
    },
    calls: recentCalls(now.getTime()).map((c) => ({ ...c, tone: c.calls > 0 && c.failed / c.calls >= 0.2 ? "bad" : c.failed > 0 ? "warn" : "ok" })),
    rate: (await rateFacts(db, now)).map((r) => ({ ...r, tone: toneAbove(r.used / r.limit, 0.8, 0.95) })),
    webhook: { lastAt: lastAt?.toISOString() ?? null, ageSeconds: webhookAge, tone: webhookTone },
    poller: { backlog: outbox.pollerBacklog, tone: toneAbove(outbox.pollerBacklog, 50, 500) },
    certificates,
    database: await databaseFacts(database),
    build: { version: env().BUILD_VERSION ?? "development" },
    draining: shutdownState().draining,
  };
}

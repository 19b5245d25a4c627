import { sql } from "drizzle-orm";
import { facilities } from "./facilities";
import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** All times are stored as timestamptz (UTC on the wire); display converts to the clinic's zone. */
const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const ROLES = ["front_desk", "billing", "manager", "admin", "prescriber"] as const;
export type Role = (typeof ROLES)[number];

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Stored lower-cased; the unique index makes sign-in case-insensitive. */
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  roles: text("roles").array().$type<Role[]>().notNull(),
  /** The facility the user works at (facilities.ts); null = the main facility. */
  facilityId: uuid("facility_id").references(() => facilities.id),
  disabledAt: utc("disabled_at"),
  lockedUntil: utc("locked_until"),
  /** A temporary password (set by an administrator) or the published demo password: changed before anything else (decision 102). */
  mustChangePassword: boolean("must_change_password").notNull().default(false),
  createdAt: utc("created_at").notNull().defaultNow(),
  updatedAt: utc("updated_at").notNull().defaultNow(),
});

/**
 * Server-side record of every sign-in. The Auth.js cookie only carries this id, so a session
 * can be ended (sign-out, idle or absolute limit, disabled user) with immediate effect.
 */
export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: utc("created_at").notNull().defaultNow(),
    lastSeenAt: utc("last_seen_at").notNull().defaultNow(),
    expiresAt: utc("expires_at").notNull(),
    endedAt: utc("ended_at"),
    endReason: text("end_reason"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    at: utc("at").notNull().defaultNow(),
  },
  (t) => [index("sign_in_failures_user_at_idx").on(t.userId, t.at)],
);

export const AUDIT_OUTCOMES = ["success", "failure", "denied"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: utc("at").notNull().defaultNow(),
    /** `user` (signed-in staff), `system` (worker, CLI), `api` (machine client), `anonymous`. */
    actorKind: text("actor_kind").notNull(),
    actorId: text("actor_id"),
    actorLabel: text("actor_label"),
    actorRoles: text("actor_roles").array().$type<string[]>().notNull().default(sql`'{}'::text[]`),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    outcome: text("outcome").$type<AuditOutcome>().notNull(),
    requestId: text("request_id"),
    ip: text("ip"),
    details: jsonb("details").$type<Record<string, unknown>>(),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_events_action_at_idx").on(t.action, t.at.desc()),
    index("audit_events_actor_at_idx").on(t.actorLabel, t.at.desc()),
  ],
);

/** Small key/value facts about this installation (e.g. when demo data was seeded). */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<Record<string, unknown>>().notNull(),
  updatedAt: utc("updated_at").notNull().defaultNow(),
});

import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/*
 * Machine access to the portal: organization keys for the provider-side exchange API (signed
 * JWTs), API keys and OAuth clients for the generic claims API, tokens for the agent gateway.
 * Every secret we issue is stored only as a SHA-256 hash, with a short visible prefix.
 */

/** A clinic system (HIS, lab, pharmacy) allowed to call /api/exchange; its client id is `iss`/`sub`. */
export const orgClients = pgTable("org_clients", {
  id: uuid("id").primaryKey().defaultRandom(),
  clientId: text("client_id").notNull().unique(),
  name: text("name").notNull(),
  createdBy: text("created_by"),
  createdAt: utc("created_at").notNull().defaultNow(),
  disabledAt: utc("disabled_at"),
});

/** Public keys (JWK, RS256 or ES256) registered for an org client; several at once for rotation. */
export const orgKeys = pgTable(
  "org_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgClientId: uuid("org_client_id")
      .notNull()
      .references(() => orgClients.id, { onDelete: "cascade" }),
    kid: text("kid").notNull(),
    alg: text("alg").$type<"RS256" | "ES256">().notNull(),
    /** The public JWK only; a private member is refused at registration. */
    jwk: jsonb("jwk").$type<Record<string, unknown>>().notNull(),
    /** RFC 7638 thumbprint. */
    thumbprint: text("thumbprint").notNull(),
    createdBy: text("created_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
    revokedAt: utc("revoked_at"),
  },
  (t) => [uniqueIndex("org_keys_client_kid_uq").on(t.orgClientId, t.kid), uniqueIndex("org_keys_thumbprint_uq").on(t.thumbprint)],
);

/** JWT ids already used, kept until the token would have expired: a replay is refused. */
export const jwtReplays = pgTable(
  "jwt_replays",
  {
    issuer: text("issuer").notNull(),
    jti: text("jti").notNull(),
    expiresAt: utc("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.jti] }), index("jwt_replays_expires_idx").on(t.expiresAt)],
);

export const API_ENVIRONMENTS = ["sandbox", "production"] as const;
export type ApiEnvironment = (typeof API_ENVIRONMENTS)[number];

/** Keys for the generic claims API (`X-API-Key`), bound to one environment, scoped, revocable. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** The first characters of the key, shown in lists (e.g. `cx_live_3f9a`). */
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull().unique(),
    environment: text("environment").$type<ApiEnvironment>().notNull(),
    scopes: text("scopes").array().$type<string[]>().notNull(),
    createdBy: text("created_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
    lastUsedAt: utc("last_used_at"),
    revokedAt: utc("revoked_at"),
  },
  (t) => [index("api_keys_prefix_idx").on(t.prefix)],
);

/** OAuth 2.0 clients (client credentials) for the generic claims API. */
export const oauthClients = pgTable("oauth_clients", {
  id: uuid("id").primaryKey().defaultRandom(),
  clientId: text("client_id").notNull().unique(),
  name: text("name").notNull(),
  secretHash: text("secret_hash").notNull(),
  /** The scopes this client may be granted. */
  scopes: text("scopes").array().$type<string[]>().notNull(),
  environment: text("environment").$type<ApiEnvironment>().notNull(),
  createdBy: text("created_by"),
  createdAt: utc("created_at").notNull().defaultNow(),
  lastUsedAt: utc("last_used_at"),
  revokedAt: utc("revoked_at"),
});

/** Access tokens issued at /oauth/token (opaque; only the hash is kept). */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    hash: text("hash").notNull().unique(),
    oauthClientId: uuid("oauth_client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    scopes: text("scopes").array().$type<string[]>().notNull(),
    createdAt: utc("created_at").notNull().defaultNow(),
    expiresAt: utc("expires_at").notNull(),
    revokedAt: utc("revoked_at"),
  },
  (t) => [index("oauth_tokens_expires_idx").on(t.expiresAt)],
);

/** Bearer tokens of the agent gateway (`/query`, `/fhir`). */
export const gatewayTokens = pgTable("gateway_tokens", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  prefix: text("prefix").notNull(),
  hash: text("hash").notNull().unique(),
  createdBy: text("created_by"),
  createdAt: utc("created_at").notNull().defaultNow(),
  lastUsedAt: utc("last_used_at"),
  revokedAt: utc("revoked_at"),
});

/**
 * How far each gateway token has read the notification feed: the largest `submission_events.id`
 * it acknowledged. Business state of the gateway, kept here rather than derived from the audit
 * log (which records that an acknowledgement happened, not where a reader stands).
 */
export const gatewayNotificationPositions = pgTable("gateway_notification_positions", {
  tokenId: uuid("token_id")
    .primaryKey()
    .references(() => gatewayTokens.id, { onDelete: "cascade" }),
  acknowledgedUpTo: bigint("acknowledged_up_to", { mode: "number" }).notNull().default(0),
  updatedAt: utc("updated_at").notNull().defaultNow(),
});

/**
 * Fixed-window request counters for the portal's own APIs (per organization, key, client or
 * token), shared by every instance. Bucket e.g. `v1:key:<id>`; rows older than a few windows
 * are deleted.
 */
export const apiRateCounters = pgTable(
  "api_rate_counters",
  {
    bucket: text("bucket").notNull(),
    windowStart: utc("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] }), index("api_rate_counters_window_idx").on(t.windowStart)],
);


import { bigserial, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * One row per request sent to the platform within the current window, per endpoint group
 * (`eligibility`, `claims`, `status`). Shared by every portal instance, so the platform's limits
 * hold for the whole clinic, not per process. Rows older than the window are deleted.
 */
export const platformRatePermits = pgTable(
  "platform_rate_permits",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    bucket: text("bucket").notNull(),
    at: utc("at").notNull(),
  },
  (t) => [index("platform_rate_permits_bucket_at_idx").on(t.bucket, t.at)],
);

/** A 429 from the platform pauses a whole group until `until` (its Retry-After). */
export const platformRateBlocks = pgTable("platform_rate_blocks", {
  bucket: text("bucket").primaryKey(),
  until: utc("until").notNull(),
  hits: integer("hits").notNull().default(1),
});

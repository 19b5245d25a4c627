import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { facilities } from "./facilities";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * The clinic's practitioners, per facility (null: the main facility), picked on the authorization
 * and claim forms as the care team (docs/decisions/084). The licence is the practitioner's on the
 * national exchange (`practitioner-license`); the specialty a practice-codes code.
 */
export const practitioners = pgTable(
  "practitioners",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    facilityId: uuid("facility_id").references(() => facilities.id),
    license: text("license").notNull(),
    givenName: text("given_name").notNull(),
    familyName: text("family_name").notNull(),
    /** practice-codes code (`08.00` …). */
    specialty: text("specialty").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("practitioners_license_uq").on(sql`lower(${t.license})`), index("practitioners_facility_idx").on(t.facilityId)],
);

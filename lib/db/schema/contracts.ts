import { boolean, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { insurers } from "./patients";

/**
 * Payer contracts (docs/decisions/089): each insurer's price list, imported from the shared CSV
 * format (lib/fhir price-list) and versioned by date — one row per price and the days it applies.
 * Written only by lib/contracts.
 */
export const contractPrices = pgTable(
  "contract_prices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    insurerId: text("insurer_id")
      .notNull()
      .references(() => insurers.id),
    /** The payer's provider network; '' = every network. */
    network: text("network").notNull().default(""),
    /** The coverage class (plan); '' = every class. */
    coverageClass: text("coverage_class").notNull().default(""),
    /** The price list's system key: `cpt`, `services`, `procedures` … (lib/fhir PRICE_LIST_SYSTEMS). */
    system: text("system").notNull(),
    code: text("code").notNull(),
    priceMinor: integer("price_minor").notNull(),
    currency: text("currency").notNull().default("SAR"),
    effectiveFrom: date("effective_from", { mode: "string" }).notNull(),
    /** Last day; null = open-ended. */
    effectiveTo: date("effective_to", { mode: "string" }),
    isPackage: boolean("is_package").notNull().default(false),
    /** Package contents (codes of the same system). */
    includes: text("includes").array().$type<string[]>().notNull().default(sql`'{}'::text[]`),
    authorizationRequired: boolean("authorization_required").notNull().default(false),
    importedAt: timestamp("imported_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("contract_prices_key_uq").on(t.insurerId, t.network, t.coverageClass, t.system, t.code, t.effectiveFrom),
    index("contract_prices_lookup_idx").on(t.insurerId, t.system, t.code),
  ],
);

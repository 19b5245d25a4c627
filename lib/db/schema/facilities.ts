import { sql } from "drizzle-orm";
import { boolean, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A clinic group's facilities beyond the main one (docs/decisions/049). The main facility is the
 * platform connection of the environment (PLATFORM_CLIENT_CERT/KEY, PROVIDER_LICENSE) and has no
 * row: with no rows at all the portal works exactly as before. Each row has its own provider
 * licence and client certificate (PEM file paths, watched for renewal like the main ones) and,
 * optionally in REST, its own OAuth client (the secret is read from a file, never stored here).
 * Users and submissions point here; null means the main facility.
 */
export const facilities = pgTable(
  "facilities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Short, stable, lower-case (`north`); shown in Settings and the CLI. */
    code: text("code").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    /** `http://nphies.sa/license/provider-license`: MessageHeader.sender of its messages. */
    providerLicense: text("provider_license").notNull(),
    certFile: text("cert_file").notNull(),
    keyFile: text("key_file").notNull(),
    /** REST only, optional: the facility's own OAuth client; else the main client's credentials. */
    oauthClientId: text("oauth_client_id"),
    oauthClientSecretFile: text("oauth_client_secret_file"),
    active: boolean("active").notNull().default(true),
    createdAt: utc("created_at").notNull().defaultNow(),
    updatedAt: utc("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("facilities_code_idx").on(t.code), uniqueIndex("facilities_license_idx").on(sql`lower(${t.providerLicense})`)],
);

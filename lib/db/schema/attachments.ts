import { sql } from "drizzle-orm";
import { customType, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { submissions } from "./submissions";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Supporting documents of a prior authorization (or a claim): the bytes as uploaded, their
 * SHA-256, the type sniffed from the bytes and a sanitised file name. Sent to the platform in
 * Claim.supportingInfo[].valueAttachment; downloadable only by roles that may see the patient.
 */
export const attachments = pgTable(
  "attachments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null while the upload belongs to an unsaved form (cleaned up after a day). */
    submissionId: uuid("submission_id").references(() => submissions.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    /** From the bytes, never from the name: application/pdf, image/jpeg or image/png. */
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    /** Hex SHA-256 of the bytes. */
    sha256: text("sha256").notNull(),
    data: bytea("data").notNull(),
    uploadedBy: text("uploaded_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("attachments_submission_idx").on(t.submissionId),
    index("attachments_orphan_idx").on(t.createdAt).where(sql`${t.submissionId} is null`),
  ],
);

import { createHash } from "node:crypto";
import { and, eq, inArray, isNull, lt, notInArray, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { attachments } from "@/lib/db";
import type { AcceptedType } from "./limits";
import { MAX_FILE_BYTES } from "./limits";
import { sanitizeFileName } from "./names";
import { sniffContentType } from "./sniff";
import { isUuid } from "@/lib/ids";

export type AttachmentRow = typeof attachments.$inferSelect;

/** What pages and forms see of an attachment (never the bytes). */
export interface AttachmentMeta {
  id: string;
  submissionId: string | null;
  fileName: string;
  contentType: AcceptedType;
  size: number;
  sha256: string;
  uploadedBy: string | null;
  createdAt: Date;
}

const META = {
  id: attachments.id,
  submissionId: attachments.submissionId,
  fileName: attachments.fileName,
  contentType: attachments.contentType,
  size: attachments.size,
  sha256: attachments.sha256,
  uploadedBy: attachments.uploadedBy,
  createdAt: attachments.createdAt,
};

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export type StoreResult =
  | { ok: true; attachment: AttachmentMeta }
  | { ok: false; reason: "empty" | "unsupported" | "truncated" | "tooLarge" };

/**
 * Checks and keeps one uploaded file: size, type from the bytes, sanitised name, SHA-256. It
 * belongs to no submission until a form is saved or submitted with it.
 */
export async function storeAttachment(db: Db, input: { bytes: Uint8Array; fileName: string; uploadedBy?: string }): Promise<StoreResult> {
  if (input.bytes.byteLength > MAX_FILE_BYTES) return { ok: false, reason: "tooLarge" };
  const sniffed = sniffContentType(input.bytes);
  if (!sniffed.ok) return { ok: false, reason: sniffed.reason };
  const data = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  const [row] = await db
    .insert(attachments)
    .values({
      fileName: sanitizeFileName(input.fileName, sniffed.contentType),
      contentType: sniffed.contentType,
      size: data.byteLength,
      sha256: sha256Hex(data),
      data,
      uploadedBy: input.uploadedBy ?? null,
    })
    .returning(META);
  return { ok: true, attachment: row as AttachmentMeta };
}

export async function getAttachment(db: Db, id: string): Promise<AttachmentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(attachments).where(eq(attachments.id, id));
  return row;
}

export async function getAttachmentMeta(db: Db, ids: readonly string[]): Promise<AttachmentMeta[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const rows = (await db.select(META).from(attachments).where(inArray(attachments.id, valid))) as AttachmentMeta[];
  const order = new Map(valid.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/** The attachments of a submission, oldest first. */
export async function listAttachments(db: Db, submissionId: string): Promise<AttachmentMeta[]> {
  const rows = (await db.select(META).from(attachments).where(eq(attachments.submissionId, submissionId))) as AttachmentMeta[];
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

/** The bytes of attachments, in the order asked (for the Claim's supportingInfo). */
export async function attachmentsWithData(db: Db, ids: readonly string[]): Promise<AttachmentRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(attachments).where(inArray(attachments.id, [...ids]));
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/**
 * Which of `ids` the user may attach to `submissionId`: files they uploaded that belong to no
 * submission yet, or files already attached to this submission. Anything else is refused.
 */
export async function attachableIds(db: Db, ids: readonly string[], userId: string | undefined, submissionId?: string): Promise<{ ok: boolean; rows: AttachmentMeta[] }> {
  const rows = await getAttachmentMeta(db, ids);
  const ok =
    rows.length === new Set(ids).size &&
    rows.every((r) => (r.submissionId === null && r.uploadedBy === userId) || (submissionId !== undefined && r.submissionId === submissionId));
  return { ok, rows };
}

/**
 * Makes `ids` the attachments of the submission: links them and deletes the ones the user removed
 * from the form. Run in the caller's transaction.
 */
export async function setSubmissionAttachments(db: Db, submissionId: string, ids: readonly string[]): Promise<void> {
  await db
    .delete(attachments)
    .where(and(eq(attachments.submissionId, submissionId), ids.length > 0 ? notInArray(attachments.id, [...ids]) : undefined));
  if (ids.length > 0) {
    await db
      .update(attachments)
      .set({ submissionId })
      .where(and(inArray(attachments.id, [...ids]), or(isNull(attachments.submissionId), eq(attachments.submissionId, submissionId))));
  }
}

/** Uploads never attached to a saved form are deleted after a day (called on upload). */
export async function deleteOrphans(db: Db, olderThan: Date): Promise<number> {
  const rows = await db
    .delete(attachments)
    .where(and(isNull(attachments.submissionId), lt(attachments.createdAt, olderThan)))
    .returning({ id: attachments.id });
  return rows.length;
}


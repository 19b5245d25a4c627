import { audit } from "@/lib/audit";
import { actorOf, authorize } from "@/lib/auth";
import { contentDisposition, getAttachment } from "@/lib/attachments";
import { getDb } from "@/lib/db";
import { requestContext, guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Roles that may see a patient's documents. */
const READERS = ["front_desk", "billing", "manager"] as const;

const json = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

/**
 * Download of one attachment, as stored: its sniffed content type, `Content-Disposition:
 * attachment` (never shown inline by the portal's origin), `nosniff`, no caching. An upload not yet
 * attached to a saved form is only visible to whoever uploaded it. Audited.
 */
export const GET = guarded("json", "attachments", async (_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  // Not signed in or not allowed: AccessError, answered by guarded() in the family's style.
  const user = await authorize(READERS);
  const { id } = await params;
  const db = await getDb();
  const ctx = await requestContext();
  const row = await getAttachment(db, id);
  const visible = row && (row.submissionId !== null || row.uploadedBy === user.id);
  await audit(db, {
    actor: actorOf(user),
    action: "attachment.download",
    target: { type: "attachment", id: visible ? row.id : "unknown" },
    outcome: visible ? "success" : "failure",
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: visible ? { submissionId: row.submissionId } : { reason: "not_found" },
  });
  if (!visible) return json(404, { error: "not_found", message: "No such attachment." });
  return new Response(new Uint8Array(row.data), {
    status: 200,
    headers: {
      "content-type": row.contentType,
      "content-length": String(row.size),
      "content-disposition": contentDisposition(row.fileName),
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      "content-security-policy": "default-src 'none'; sandbox",
      "x-attachment-sha256": row.sha256,
    },
  });
});

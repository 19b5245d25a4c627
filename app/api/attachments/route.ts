import { audit } from "@/lib/audit";
import { actorOf, authorize, AREAS } from "@/lib/auth";
import { MAX_FILE_BYTES, deleteOrphans, storeAttachment } from "@/lib/attachments";
import { BodyTooLargeError, readLimitedBody, requestContext, guarded } from "@/lib/http";
import { getDb } from "@/lib/db";
import { AppError, jsonResponse, renderError } from "@/lib/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const json = (status: number, body: Record<string, unknown>) => jsonResponse(body, status);

const MESSAGES = {
  tooLarge: `The file is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MB.`,
  empty: "The file is empty.",
  unsupported: "Only PDF, JPEG and PNG files are accepted (checked from the file's contents, not its name).",
  truncated: "The file is incomplete or damaged (its end is missing).",
} as const;

/**
 * Upload of one supporting attachment. The body is the file's bytes (any Content-Type; the name in
 * `X-File-Name`, percent-encoded). Not a server action: those stop at 1 MB. The size is checked
 * while streaming (413 as soon as it passes 10 MB), the type from the bytes, the name sanitised,
 * the SHA-256 stored. Answers 201 {id, fileName, contentType, size, sha256}.
 */
export const POST = guarded("json", "attachments", async (request: Request): Promise<Response> => {
  // Not signed in or not allowed: AccessError, answered by guarded() in the family's style.
  const user = await authorize([...new Set([...AREAS.authorizations.roles, ...AREAS.claims.roles])]);
  const ctx = await requestContext();
  const db = await getDb();
  const actor = actorOf(user);
  // A refusal of the catalogue (413 payload_too_large, 415 unsupported_media_type) whose `reason`
  // says which rule (the uploader words it: components/attachments).
  const refuse = async (reason: keyof typeof MESSAGES) => {
    await audit(db, { actor, action: "attachment.upload", outcome: "failure", requestId: ctx.requestId, ip: ctx.ip, details: { reason } });
    const code = reason === "tooLarge" ? "payload_too_large" : "unsupported_media_type";
    return renderError(new AppError(code, MESSAGES[reason], { reason, extra: { maxBytes: MAX_FILE_BYTES } }), "json");
  };

  let bytes: Uint8Array;
  try {
    bytes = await readLimitedBody(request, MAX_FILE_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuse("tooLarge");
    return renderError(new AppError("invalid_request", "The upload was interrupted.", { reason: "interrupted" }), "json");
  }
  let fileName = "attachment";
  try {
    fileName = decodeURIComponent(request.headers.get("x-file-name") ?? "attachment");
  } catch {
    // A malformed name is replaced; the bytes decide everything that matters.
  }
  const stored = await storeAttachment(db, { bytes, fileName, uploadedBy: user.id });
  if (!stored.ok) return refuse(stored.reason);
  const a = stored.attachment;
  await audit(db, {
    actor,
    action: "attachment.upload",
    target: { type: "attachment", id: a.id },
    outcome: "success",
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: { contentType: a.contentType, size: a.size, sha256: a.sha256 },
  });
  // Uploads never attached to a saved form go after a day.
  void deleteOrphans(db, new Date(Date.now() - 24 * 60 * 60_000)).catch(() => {});
  return json(201, { id: a.id, fileName: a.fileName, contentType: a.contentType, size: a.size, sha256: a.sha256 });
});

import { audit } from "@/lib/audit";
import { actorOf, authorize, AREAS } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { AppError, jsonResponse, renderError } from "@/lib/errors";
import { guarded, requestContext } from "@/lib/http";
import { CodeFileError, ImportTooLargeError, TERMINOLOGY_IMPORT_LIMITS, chunksOfRequest, importCodes } from "@/lib/terminology";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Import of one code file from Settings (docs/decisions/086): administrators only. The body is the
 * file's bytes; `?format=csv|fhir`, `?system=<key or URL>` (a CodeSystem may name its own),
 * `?version=` and the name in `X-File-Name` (percent-encoded). The body streams into the import
 * and is refused 413 as soon as it passes 15 MB (larger sets: the admin CLI). A file that cannot be
 * read is a 422 in words; bad lines are refused by number in the 201 answer, good ones kept.
 */
export const POST = guarded("json", "terminology-import", async (request: Request): Promise<Response> => {
  const user = await authorize(AREAS.settings.roles);
  const ctx = await requestContext();
  const db = await getDb();
  const url = new URL(request.url);
  const format = url.searchParams.get("format");
  const system = url.searchParams.get("system")?.trim() || undefined;
  let fileName: string | undefined;
  try {
    fileName = decodeURIComponent(request.headers.get("x-file-name") ?? "").slice(0, 200) || undefined;
  } catch {
    fileName = undefined;
  }
  const refuse = async (error: AppError) => {
    await audit(db, { actor: actorOf(user), action: "terminology.import", outcome: "failure", requestId: ctx.requestId, ip: ctx.ip, details: { system: system ?? null, format, reason: error.reason ?? error.code } });
    return renderError(error, "json");
  };
  if (format !== "csv" && format !== "fhir") return refuse(new AppError("invalid_request", "Choose the file's format: CSV or FHIR CodeSystem (JSON).", { reason: "format" }));
  try {
    const summary = await importCodes(db, {
      system,
      format,
      chunks: chunksOfRequest(request, TERMINOLOGY_IMPORT_LIMITS.uploadBytes),
      version: url.searchParams.get("version") ?? undefined,
      fileName,
      importedBy: user.id,
    });
    const { problems, ...counts } = summary;
    await audit(db, { actor: actorOf(user), action: "terminology.import", target: { type: "terminology_import", id: summary.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: counts });
    return jsonResponse({ ...summary, problems }, 201);
  } catch (error) {
    if (error instanceof ImportTooLargeError) {
      return refuse(new AppError("payload_too_large", `${error.message} Import larger files with the admin command line (npm run admin -- terminology:import).`, { reason: "too_large", extra: { maxBytes: error.limit } }));
    }
    if (error instanceof CodeFileError) return refuse(new AppError("unprocessable", error.message, { reason: "unreadable_file" }));
    throw error;
  }
});

import type { AcceptedType } from "./limits";

const EXTENSION: Record<AcceptedType, string> = { "application/pdf": ".pdf", "image/jpeg": ".jpg", "image/png": ".png" };
const KNOWN_EXTENSIONS: Record<AcceptedType, readonly string[]> = {
  "application/pdf": [".pdf"],
  "image/jpeg": [".jpg", ".jpeg"],
  "image/png": [".png"],
};
const MAX_NAME_LENGTH = 120;

/**
 * A file name safe to store, show and send in a Content-Disposition header: no folders, no control
 * or bidirectional-override characters (which can disguise "exe.pdf" as "fdp.exe"), none of
 * `<>:"/\|?*`, no leading dots, collapsed spaces, at most 120 characters — and an extension that
 * matches the type sniffed from the bytes. Letters of any script (Arabic names) are kept.
 */
export function sanitizeFileName(raw: string, contentType: AcceptedType): string {
  let name = raw.normalize("NFC");
  // Keep only the last path segment (Windows or POSIX).
  name = name.split(/[\\/]/).pop() ?? "";
  name = name
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/[<>:"|?*]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "");

  const lower = name.toLowerCase();
  const known = KNOWN_EXTENSIONS[contentType].find((ext) => lower.endsWith(ext));
  let stem = known ? name.slice(0, -known.length) : name;
  const ext = known ? name.slice(-known.length).toLowerCase() : EXTENSION[contentType];
  stem = stem.replace(/[.\s]+$/, "");
  if (!stem) stem = "attachment";
  const room = MAX_NAME_LENGTH - ext.length;
  if (stem.length > room) stem = Array.from(stem).slice(0, room).join("").slice(0, room);
  return `${stem}${ext}`;
}

/**
 * `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded` (RFC 6266 / 5987),
 * so Arabic names download correctly and nothing in the name can break the header.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

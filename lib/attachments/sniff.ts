import type { AcceptedType } from "./limits";

/**
 * Decides a file's type from its BYTES (magic numbers and end markers), never from its name or the
 * browser's guess. A file that starts right but is cut off (no end marker) is refused as truncated,
 * so the platform never receives half a report.
 */
export type SniffResult = { ok: true; contentType: AcceptedType } | { ok: false; reason: "empty" | "unsupported" | "truncated" };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** IEND chunk: length 0, type "IEND", CRC AE 42 60 82. */
const PNG_IEND = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
const PDF_HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const PDF_EOF = [0x25, 0x25, 0x45, 0x4f, 0x46]; // %%EOF

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

/** Index of `needle` in the last `window` bytes, or -1. */
function findInTail(bytes: Uint8Array, needle: readonly number[], window: number): number {
  const from = Math.max(0, bytes.length - window);
  outer: for (let i = bytes.length - needle.length; i >= from; i--) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export function sniffContentType(bytes: Uint8Array): SniffResult {
  if (bytes.length === 0) return { ok: false, reason: "empty" };

  if (startsWith(bytes, PNG_SIGNATURE)) {
    // Signature, then the IHDR chunk (length 13), and the IEND chunk at the very end.
    const ihdr = startsWith(bytes, [0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52], 8);
    if (!ihdr || bytes.length < 8 + 25 + PNG_IEND.length) return { ok: false, reason: "truncated" };
    return startsWith(bytes, PNG_IEND, bytes.length - PNG_IEND.length) ? { ok: true, contentType: "image/png" } : { ok: false, reason: "truncated" };
  }

  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    // SOI FF D8 FF … EOI FF D9 (some cameras pad a few bytes after EOI).
    return findInTail(bytes, [0xff, 0xd9], 64) > 2 ? { ok: true, contentType: "image/jpeg" } : { ok: false, reason: "truncated" };
  }

  if (startsWith(bytes, PDF_HEADER)) {
    // %PDF-1.x … %%EOF near the end (trailing whitespace or a few bytes are allowed).
    return findInTail(bytes, PDF_EOF, 1024) >= 0 ? { ok: true, contentType: "application/pdf" } : { ok: false, reason: "truncated" };
  }

  return { ok: false, reason: "unsupported" };
}

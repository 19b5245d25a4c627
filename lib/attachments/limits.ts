import { ATTACHMENT_BODY_LIMIT_BYTES } from "@/lib/http/browser";
/**
 * Limits on supporting attachments (README "Prior authorization"). The platform publishes none;
 * these keep one request well inside what a clinic's connection and the platform handle.
 */
export const MAX_FILE_BYTES = ATTACHMENT_BODY_LIMIT_BYTES;
export const MAX_FILES = 5;
export const MAX_TOTAL_BYTES = 20 * 1024 * 1024;

/** The only types accepted — decided from the file's bytes, never its name. */
export const ACCEPTED_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

export type LimitProblem = "tooLarge" | "tooMany" | "totalTooLarge" | "empty";

/**
 * Whether one more file of `size` bytes may join files of `existingSizes`: the per-file limit, the
 * number of files and the total.
 */
export function checkLimits(existingSizes: readonly number[], size: number): LimitProblem | undefined {
  if (size <= 0) return "empty";
  if (size > MAX_FILE_BYTES) return "tooLarge";
  if (existingSizes.length + 1 > MAX_FILES) return "tooMany";
  if (existingSizes.reduce((a, b) => a + b, 0) + size > MAX_TOTAL_BYTES) return "totalTooLarge";
  return undefined;
}

/** A whole set of files (checked again on the server when a form is saved or submitted). */
export function checkSet(sizes: readonly number[]): LimitProblem | undefined {
  if (sizes.length > MAX_FILES) return "tooMany";
  if (sizes.some((s) => s > MAX_FILE_BYTES)) return "tooLarge";
  if (sizes.reduce((a, b) => a + b, 0) > MAX_TOTAL_BYTES) return "totalTooLarge";
  return undefined;
}

/** "1.4 MB", "820 KB", "312 B" — sizes shown next to previews. */
const BYTE_UNITS = {
  en: { mb: "MB", kb: "KB", b: "B" },
  ar: { mb: "ميغابايت", kb: "كيلوبايت", b: "بايت" },
} as const;

/** A size for people, in the page's language ("10.0 MB", "١٠٫٠ ميغابايت"). */
export function formatBytes(bytes: number, locale = "en"): string {
  const lang = locale.startsWith("ar") ? "ar" : "en";
  const units = BYTE_UNITS[lang];
  const number = (value: number, digits: number) => new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  if (bytes >= 1024 * 1024) return `${number(bytes / (1024 * 1024), 1)} ${units.mb}`;
  if (bytes >= 1024) return `${number(Math.round(bytes / 1024), 0)} ${units.kb}`;
  return `${number(bytes, 0)} ${units.b}`;
}

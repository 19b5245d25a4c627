import { SUBMISSION_STATUSES } from "@/lib/db";
import type { SubmissionStatus } from "@/lib/db";
import { hasControlCharacters } from "@/lib/http";
import { decodeCursor, type CursorKey } from "./cursor";
import { claimsApiError } from "./errors";

/** The query of `GET /v1/claims`, validated. */
export interface ClaimsQuery {
  limit: number;
  cursor?: CursorKey;
  statuses?: SubmissionStatus[];
  /** The patient's national ID — patient data: never logged or audited. */
  patient?: string;
  createdGte?: Date;
  createdLt?: Date;
}

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/** Every parameter `GET /v1/claims` understands (the OpenAPI document lists the same). */
export const CLAIMS_PARAMETERS = ["limit", "cursor", "status", "patient", "created_gte", "created_lt"] as const;
/** Query parameters that would put a secret into URLs, logs and browser history. */
export const CREDENTIAL_PARAMETERS = ["api_key", "apikey", "key", "x-api-key", "access_token", "token", "client_secret"];

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const PATIENT = /^[A-Za-z0-9.-]{1,64}$/;

/** A name safe to echo and to audit: control characters shown as U+FFFD, at most 40 characters. */
const printable = (name: string) => name.slice(0, 40).replace(/[\u0000-\u001F\u007F-\u009F]/g, "\uFFFD");

const invalid = (parameter: string, message: string) => claimsApiError("invalid_parameter", message, { parameter });

/**
 * `YYYY-MM-DD` (the start of that day, UTC) or an ISO 8601 date-time with a zone (`Z` or
 * `±HH:MM`). Calendar-checked: 2026-02-30 is refused, not rolled over.
 */
export function parseInstant(value: string): Date | undefined {
  const match = DATE.exec(value) ?? DATE_TIME.exec(value);
  if (!match) return undefined;
  const [, y, m, d, hh = "00", mm = "00", ss = "00"] = match;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (year < 1900 || month < 1 || month > 12 || day < 1 || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return undefined;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const zone = match[7];
  if (zone && zone !== "Z" && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return undefined;
  const date = new Date(DATE.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Throws `credentials_in_url` when the query string carries something that looks like a secret. */
export function refuseCredentialsInUrl(params: URLSearchParams): void {
  const names = [...new Set(params.keys())];
  const credential = names.find((n) => CREDENTIAL_PARAMETERS.includes(n.toLowerCase()));
  if (credential) {
    throw claimsApiError(
      "credentials_in_url",
      `Credentials are never accepted in the URL (${credential}): URLs end up in logs, proxies and browser history. Send the key in the X-API-Key header or a token in Authorization: Bearer, and revoke a key that was sent in a URL.`,
      { parameter: credential },
    );
  }
}

/** Validates the query string; throws an AppError (400 invalid_request, reason invalid_parameter) naming the first bad parameter. */
export function parseClaimsQuery(params: URLSearchParams): ClaimsQuery {
  refuseCredentialsInUrl(params);
  const names = [...new Set(params.keys())];
  for (const name of names) {
    // Refused before anything else reads them: PostgreSQL cannot store NUL, and the name is echoed.
    if (hasControlCharacters(name)) throw invalid(printable(name), "A parameter name contains control characters.");
    if (params.getAll(name).some((v) => hasControlCharacters(v))) throw invalid(printable(name), `${printable(name)} contains control characters.`);
  }
  for (const name of names) {
    if (!(CLAIMS_PARAMETERS as readonly string[]).includes(name)) {
      throw invalid(name, `Unknown parameter "${name.slice(0, 40)}". Known parameters: ${CLAIMS_PARAMETERS.join(", ")}.`);
    }
    if (params.getAll(name).length > 1) throw invalid(name, `Give ${name} once (status takes a comma-separated list).`);
  }
  const query: ClaimsQuery = { limit: DEFAULT_LIMIT };

  const limit = params.get("limit");
  if (limit !== null) {
    if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT) {
      throw invalid("limit", `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
    }
    query.limit = Number(limit);
  }

  const cursor = params.get("cursor");
  if (cursor !== null) {
    query.cursor = decodeCursor(cursor);
    if (!query.cursor) throw invalid("cursor", "cursor is not a value returned as next_cursor by this API.");
  }

  const status = params.get("status");
  if (status !== null) {
    const list = status.split(",").map((s) => s.trim());
    const unknown = list.find((s) => !(SUBMISSION_STATUSES as readonly string[]).includes(s));
    if (unknown !== undefined) {
      throw invalid("status", `status must be one or more (comma-separated) of: ${SUBMISSION_STATUSES.join(", ")}.`);
    }
    query.statuses = [...new Set(list as SubmissionStatus[])];
  }

  const patient = params.get("patient");
  if (patient !== null) {
    // The value itself is patient data: it is never echoed back.
    if (!PATIENT.test(patient)) throw invalid("patient", "patient must be a national ID (1–64 letters, digits, '-' or '.').");
    query.patient = patient;
  }

  for (const [name, key] of [
    ["created_gte", "createdGte"],
    ["created_lt", "createdLt"],
  ] as const) {
    const raw = params.get(name);
    if (raw === null) continue;
    const date = parseInstant(raw);
    if (!date) throw invalid(name, `${name} must be a date (YYYY-MM-DD, UTC) or a date-time with a zone (e.g. 2026-11-01T00:00:00Z).`);
    query[key] = date;
  }
  return query;
}

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/*
 * Secrets the portal issues (API keys, OAuth client secrets, access tokens). They are shown once
 * and stored only as a SHA-256 hash: they carry ≥ 190 bits of randomness, so a fast hash is
 * enough (no password stretching needed) and lets a request find its row by the hash alone.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `length` characters of base62, without modulo bias (rejection sampling). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Lower-case hex SHA-256 of a secret, as stored in the database. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** The scopes of the generic claims API. Keep scopes minimal (platform spec, "Authentication"). */
export const API_SCOPES = ["claims:read"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

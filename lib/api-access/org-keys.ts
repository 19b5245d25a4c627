import { and, asc, eq, isNull } from "drizzle-orm";
import { calculateJwkThumbprint, importJWK, type JWK } from "jose";
import type { Db } from "@/lib/db";
import { orgClients, orgKeys } from "@/lib/db";

/**
 * Organization clients of the provider-side exchange API (/api/exchange) and their public keys.
 * A client (the clinic's HIS, lab, pharmacy …) signs every request with its private key; we keep
 * only public JWKs, several per client so keys can be rotated, each revocable on its own.
 */

export type OrgKeyAlg = "RS256" | "ES256";
export const ORG_KEY_ALGS: readonly OrgKeyAlg[] = ["RS256", "ES256"];

/** A client id is what the client puts in `iss`/`sub`: short, printable, no spaces. */
export const ORG_CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/** A refused input (bad JWK, unknown client …): the message is meant for the administrator. */
export class OrgKeyInputError extends Error {
  override name = "OrgKeyInputError";
}

export type OrgClient = typeof orgClients.$inferSelect;
export type OrgKey = typeof orgKeys.$inferSelect;

export interface PublicJwk {
  jwk: Record<string, string>;
  alg: OrgKeyAlg;
  kid: string;
  thumbprint: string;
}

/** Members that only a private (or symmetric) key has. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const B64URL = /^[A-Za-z0-9_-]+$/;

function b64urlBytes(value: string): number {
  return Buffer.from(value, "base64url").length;
}

/**
 * Checks a pasted JWK and keeps only its public members. Refuses private keys, symmetric keys and
 * every algorithm other than RS256 (RSA ≥ 2048 bits) and ES256 (EC P-256), with a message that says
 * what is wrong. `kid` is the JWK's own, or its RFC 7638 thumbprint when it has none.
 */
export async function parsePublicJwk(input: unknown): Promise<PublicJwk> {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new OrgKeyInputError("The key is not valid JSON. Paste the public key as a JWK, e.g. {\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"…\",\"y\":\"…\"}.");
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new OrgKeyInputError("The key must be a single JWK object (not a JWK Set or a PEM file).");
  }
  const raw = value as Record<string, unknown>;
  if (Array.isArray(raw.keys)) throw new OrgKeyInputError("This is a JWK Set: register its keys one at a time.");
  const privateMembers = PRIVATE_MEMBERS.filter((m) => m in raw);
  if (privateMembers.length > 0) {
    throw new OrgKeyInputError(
      `This is a private key (it has ${privateMembers.map((m) => `"${m}"`).join(", ")}). Register only the PUBLIC key; the private key never leaves the organization's system.`,
    );
  }
  const str = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : undefined);
  const kty = str("kty");
  const declaredAlg = raw.alg === undefined ? undefined : str("alg");
  if (raw.alg !== undefined && declaredAlg === undefined) throw new OrgKeyInputError("\"alg\" must be a string.");
  if (raw.use !== undefined && raw.use !== "sig") throw new OrgKeyInputError("\"use\" must be \"sig\" (a signing key) when present.");
  if (raw.kid !== undefined && (typeof raw.kid !== "string" || !/^[\x21-\x7e]{1,128}$/.test(raw.kid))) {
    throw new OrgKeyInputError("\"kid\" must be 1–128 printable characters without spaces.");
  }

  let alg: OrgKeyAlg;
  let jwk: Record<string, string>;
  if (kty === "EC") {
    const [crv, x, y] = [str("crv"), str("x"), str("y")];
    if (crv !== "P-256") throw new OrgKeyInputError(`Only the P-256 curve (ES256) is accepted; this key uses ${crv ?? "no curve"}.`);
    if (!x || !y || !B64URL.test(x) || !B64URL.test(y) || b64urlBytes(x) !== 32 || b64urlBytes(y) !== 32) {
      throw new OrgKeyInputError("An EC P-256 key needs \"x\" and \"y\", each 32 bytes in base64url.");
    }
    if (declaredAlg !== undefined && declaredAlg !== "ES256") throw new OrgKeyInputError(`An EC P-256 key is used with ES256 only, not ${declaredAlg}.`);
    alg = "ES256";
    jwk = { kty, crv, x, y };
  } else if (kty === "RSA") {
    const [n, e] = [str("n"), str("e")];
    if (!n || !e || !B64URL.test(n) || !B64URL.test(e)) throw new OrgKeyInputError("An RSA key needs \"n\" and \"e\" in base64url.");
    if (b64urlBytes(n) * 8 < 2048) throw new OrgKeyInputError("RSA keys must be at least 2048 bits.");
    if (declaredAlg !== undefined && declaredAlg !== "RS256") {
      throw new OrgKeyInputError(`Only RS256 is accepted for RSA keys, not ${declaredAlg}. Supported: RS256 (RSA) and ES256 (EC P-256).`);
    }
    alg = "RS256";
    jwk = { kty, n, e };
  } else if (kty === "oct") {
    throw new OrgKeyInputError("Symmetric keys (kty \"oct\", HS256 …) are not accepted: the organization signs with its private key (RS256 or ES256).");
  } else {
    throw new OrgKeyInputError(`Unsupported key type ${kty ? `"${kty}"` : "(no kty)"}. Supported: RS256 (RSA) and ES256 (EC P-256).`);
  }
  // Importing proves the key material is usable (a point on the curve, a valid modulus).
  try {
    await importJWK(jwk as JWK, alg);
  } catch {
    throw new OrgKeyInputError("The key material is not a valid public key.");
  }
  const thumbprint = await calculateJwkThumbprint(jwk as JWK, "sha256");
  const kid = (raw.kid as string | undefined) ?? thumbprint;
  return { jwk: { ...jwk, kid, alg, use: "sig" }, alg, kid, thumbprint };
}

export async function getOrgClient(db: Db, clientId: string): Promise<OrgClient | undefined> {
  const [row] = await db.select().from(orgClients).where(eq(orgClients.clientId, clientId));
  return row;
}

export async function createOrgClient(db: Db, input: { clientId: string; name?: string; createdBy?: string }): Promise<OrgClient> {
  const clientId = input.clientId.trim();
  if (!ORG_CLIENT_ID_PATTERN.test(clientId)) {
    throw new OrgKeyInputError("The organization client id must be 1–100 characters: letters, digits, '.', '_', ':' or '-'.");
  }
  const name = (input.name ?? clientId).trim().slice(0, 200) || clientId;
  const [row] = await db.insert(orgClients).values({ clientId, name, createdBy: input.createdBy ?? null }).onConflictDoNothing().returning();
  if (!row) throw new OrgKeyInputError(`The organization client ${clientId} already exists.`);
  return row;
}

/** The client, created when missing (`created` says which). */
export async function ensureOrgClient(db: Db, input: { clientId: string; name?: string; createdBy?: string }): Promise<{ client: OrgClient; created: boolean }> {
  const existing = await getOrgClient(db, input.clientId.trim());
  if (existing) return { client: existing, created: false };
  try {
    return { client: await createOrgClient(db, input), created: true };
  } catch (error) {
    // Created by someone else in between.
    const again = await getOrgClient(db, input.clientId.trim());
    if (again) return { client: again, created: false };
    throw error;
  }
}

export async function setOrgClientDisabled(db: Db, clientId: string, disabled: boolean): Promise<OrgClient> {
  const [row] = await db
    .update(orgClients)
    .set({ disabledAt: disabled ? new Date() : null })
    .where(eq(orgClients.clientId, clientId))
    .returning();
  if (!row) throw new OrgKeyInputError(`No organization client ${clientId}.`);
  return row;
}

export async function addOrgKey(
  db: Db,
  input: { clientId: string; jwk: unknown; createdBy?: string },
): Promise<{ client: OrgClient; key: OrgKey }> {
  const parsed = await parsePublicJwk(input.jwk);
  const client = await getOrgClient(db, input.clientId);
  if (!client) throw new OrgKeyInputError(`No organization client ${input.clientId}.`);
  const [byThumb] = await db.select().from(orgKeys).where(eq(orgKeys.thumbprint, parsed.thumbprint));
  if (byThumb) throw new OrgKeyInputError(`This key is already registered (kid ${byThumb.kid}).`);
  const [row] = await db
    .insert(orgKeys)
    .values({
      orgClientId: client.id,
      kid: parsed.kid,
      alg: parsed.alg,
      jwk: parsed.jwk,
      thumbprint: parsed.thumbprint,
      createdBy: input.createdBy ?? null,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new OrgKeyInputError(`The organization ${client.clientId} already has a key with kid ${parsed.kid} (or this key is registered): choose another kid.`);
  return { client, key: row };
}

export async function revokeOrgKey(db: Db, input: { clientId: string; kid: string }): Promise<{ client: OrgClient; key: OrgKey; alreadyRevoked: boolean }> {
  const client = await getOrgClient(db, input.clientId);
  if (!client) throw new OrgKeyInputError(`No organization client ${input.clientId}.`);
  const [key] = await db.select().from(orgKeys).where(and(eq(orgKeys.orgClientId, client.id), eq(orgKeys.kid, input.kid)));
  if (!key) throw new OrgKeyInputError(`The organization ${client.clientId} has no key ${input.kid}.`);
  if (key.revokedAt) return { client, key, alreadyRevoked: true };
  const [row] = await db.update(orgKeys).set({ revokedAt: new Date() }).where(and(eq(orgKeys.id, key.id), isNull(orgKeys.revokedAt))).returning();
  return { client, key: row ?? key, alreadyRevoked: !row };
}

export interface OrgClientWithKeys extends OrgClient {
  keys: OrgKey[];
}

/** Every client with all its keys (revoked ones too), oldest first. */
export async function listOrgClients(db: Db): Promise<OrgClientWithKeys[]> {
  const clients = await db.select().from(orgClients).orderBy(asc(orgClients.createdAt), asc(orgClients.clientId));
  const keys = await db.select().from(orgKeys).orderBy(asc(orgKeys.createdAt), asc(orgKeys.kid));
  return clients.map((c) => ({ ...c, keys: keys.filter((k) => k.orgClientId === c.id) }));
}

/**
 * What the JWT check needs: the client if it exists and is enabled, with its unrevoked keys.
 * No keys for an unknown or disabled client.
 */
export async function activeKeysOf(db: Db, clientId: string): Promise<{ client: OrgClient | undefined; keys: OrgKey[] }> {
  const client = await getOrgClient(db, clientId);
  if (!client || client.disabledAt) return { client, keys: [] };
  const keys = await db
    .select()
    .from(orgKeys)
    .where(and(eq(orgKeys.orgClientId, client.id), isNull(orgKeys.revokedAt)))
    .orderBy(asc(orgKeys.createdAt));
  return { client, keys };
}

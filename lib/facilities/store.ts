import { X509Certificate, createPrivateKey } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { facilities, users, type Db } from "@/lib/db";

/** A facility of the clinic group: the main one (the environment's connection) or a row. */
export interface Facility {
  /** null for the main facility. */
  id: string | null;
  code: string;
  name: { en: string; ar: string };
  /** Null for the main facility when PROVIDER_LICENSE is not set (the platform's default applies). */
  providerLicense: string | null;
  certFile: string | null;
  keyFile: string | null;
  oauthClientId: string | null;
  oauthClientSecretFile: string | null;
  active: boolean;
  updatedAt: Date | null;
}

export const MAIN_FACILITY_CODE = "main";

export class FacilityInputError extends Error {
  override name = "FacilityInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const CODE = /^[a-z][a-z0-9-]{1,31}$/;
const LICENSE = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

function toFacility(row: typeof facilities.$inferSelect): Facility {
  return {
    id: row.id,
    code: row.code,
    name: { en: row.nameEn, ar: row.nameAr },
    providerLicense: row.providerLicense,
    certFile: row.certFile,
    keyFile: row.keyFile,
    oauthClientId: row.oauthClientId,
    oauthClientSecretFile: row.oauthClientSecretFile,
    active: row.active,
    updatedAt: row.updatedAt,
  };
}

/** The facilities with a row, by code (the main facility is described by lib/platform from the environment). */
export async function listFacilities(db: Db): Promise<Facility[]> {
  return (await db.select().from(facilities).orderBy(asc(facilities.code))).map(toFacility);
}

export async function getFacility(db: Db, id: string): Promise<Facility | undefined> {
  const [row] = await db.select().from(facilities).where(eq(facilities.id, id)).limit(1);
  return row ? toFacility(row) : undefined;
}

export async function facilityByCode(db: Db, code: string): Promise<Facility | undefined> {
  const [row] = await db.select().from(facilities).where(eq(facilities.code, code)).limit(1);
  return row ? toFacility(row) : undefined;
}

function readableFile(field: string, file: string): string {
  const absolute = path.resolve(file);
  try {
    fs.accessSync(absolute, fs.constants.R_OK);
    if (!fs.statSync(absolute).isFile()) throw new Error("not a file");
  } catch {
    throw new FacilityInputError(field, `${absolute} does not exist or cannot be read by the portal`);
  }
  return absolute;
}

/**
 * Checks the PEM pair before anything is stored: a certificate that parses, is valid now, and a
 * private key that belongs to it. Returns its expiry.
 */
export function checkCertificatePair(certFile: string, keyFile: string, now = new Date()): { notAfter: Date } {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(fs.readFileSync(certFile));
  } catch {
    throw new FacilityInputError("cert", `${certFile} is not a PEM certificate`);
  }
  let key;
  try {
    key = createPrivateKey(fs.readFileSync(keyFile));
  } catch {
    throw new FacilityInputError("key", `${keyFile} is not a PEM private key (an encrypted key is not supported)`);
  }
  if (!cert.checkPrivateKey(key)) throw new FacilityInputError("key", `${keyFile} is not the private key of ${certFile}`);
  const notAfter = new Date(cert.validTo);
  if (notAfter.getTime() <= now.getTime()) throw new FacilityInputError("cert", `${certFile} expired on ${notAfter.toISOString().slice(0, 10)}`);
  return { notAfter };
}

export interface FacilityInput {
  code: string;
  nameEn: string;
  nameAr: string;
  providerLicense: string;
  certFile: string;
  keyFile: string;
  oauthClientId?: string;
  oauthClientSecretFile?: string;
}

/** Adds a facility after checking everything it needs to connect; the same licence or code twice is refused. */
export async function addFacility(db: Db, input: FacilityInput, now = new Date()): Promise<Facility & { notAfter: Date }> {
  if (!CODE.test(input.code) || input.code === MAIN_FACILITY_CODE) {
    throw new FacilityInputError("code", `the code must be 2–32 lower-case letters, digits or '-', start with a letter, and not be '${MAIN_FACILITY_CODE}'`);
  }
  if (!LICENSE.test(input.providerLicense)) throw new FacilityInputError("license", "the provider licence must be 3–64 letters, digits, '.', '_' or '-'");
  for (const [field, value] of [
    ["name-en", input.nameEn],
    ["name-ar", input.nameAr],
  ] as const) {
    if (!value.trim() || value.length > 120) throw new FacilityInputError(field, `--${field} must be 1–120 characters`);
  }
  if (Boolean(input.oauthClientId) !== Boolean(input.oauthClientSecretFile)) {
    throw new FacilityInputError("client-id", "an own OAuth client needs both --client-id and --client-secret-file");
  }
  const certFile = readableFile("cert", input.certFile);
  const keyFile = readableFile("key", input.keyFile);
  const secretFile = input.oauthClientSecretFile ? readableFile("client-secret-file", input.oauthClientSecretFile) : null;
  const { notAfter } = checkCertificatePair(certFile, keyFile, now);
  const taken = await db
    .select({ code: facilities.code })
    .from(facilities)
    .where(sql`${facilities.code} = ${input.code} or lower(${facilities.providerLicense}) = lower(${input.providerLicense})`);
  if (taken.length > 0) throw new FacilityInputError("code", `facility ${taken[0]!.code} already has this code or licence`);
  const [row] = await db
    .insert(facilities)
    .values({
      code: input.code,
      nameEn: input.nameEn.trim(),
      nameAr: input.nameAr.trim(),
      providerLicense: input.providerLicense,
      certFile,
      keyFile,
      oauthClientId: input.oauthClientId ?? null,
      oauthClientSecretFile: secretFile,
    })
    .returning();
  return { ...toFacility(row!), notAfter };
}

export async function setFacilityActive(db: Db, code: string, active: boolean): Promise<Facility> {
  const [row] = await db.update(facilities).set({ active, updatedAt: new Date() }).where(eq(facilities.code, code)).returning();
  if (!row) throw new FacilityInputError("code", `no facility with code ${code}`);
  return toFacility(row);
}

/** Assigns a user to a facility (`main` = the main facility). */
export async function assignUserFacility(db: Db, email: string, code: string): Promise<{ userId: string; facilityId: string | null }> {
  let facilityId: string | null = null;
  if (code !== MAIN_FACILITY_CODE) {
    const facility = await facilityByCode(db, code);
    if (!facility) throw new FacilityInputError("facility", `no facility with code ${code}`);
    if (!facility.active) throw new FacilityInputError("facility", `facility ${code} is not active`);
    facilityId = facility.id;
  }
  const [row] = await db.update(users).set({ facilityId, updatedAt: new Date() }).where(eq(users.email, email.trim().toLowerCase())).returning({ id: users.id });
  if (!row) throw new FacilityInputError("email", `no user with e-mail ${email}`);
  return { userId: row.id, facilityId };
}

/** The facility a user sends from (null = main). */
export async function userFacilityId(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ facilityId: users.facilityId }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.facilityId ?? null;
}

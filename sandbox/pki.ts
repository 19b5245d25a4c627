import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { createHash, createPrivateKey, webcrypto, X509Certificate as NodeX509Certificate } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "./fs-util";

/**
 * Development PKI of the sandbox: one CA, a server certificate for localhost/127.0.0.1/::1 and the
 * portal's client certificate. EC P-256 keys, ECDSA with SHA-256. Generated on first start in
 * `<dataDir>/pki/` and kept; keys are written with mode 0600.
 */

x509.cryptoProvider.set(globalThis.crypto);

const EC_PARAMS: EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
const SIGNING: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };
const DAY_MS = 24 * 60 * 60 * 1000;

export const CLIENT_CERT_VALIDITY_DAYS = 365;
const SERVER_CERT_VALIDITY_DAYS = 365;
const CA_VALIDITY_DAYS = 3650;
/** A server certificate closer than this to expiry is replaced at start. */
const SERVER_RENEW_BEFORE_DAYS = 30;

export interface PkiPaths {
  dir: string;
  ca: string;
  caKey: string;
  server: string;
  serverKey: string;
  client: string;
  clientKey: string;
}

export function pkiPaths(dataDir: string): PkiPaths {
  const dir = path.resolve(dataDir, "pki");
  return {
    dir,
    ca: path.join(dir, "ca.pem"),
    caKey: path.join(dir, "ca-key.pem"),
    server: path.join(dir, "server.pem"),
    serverKey: path.join(dir, "server-key.pem"),
    client: path.join(dir, "client.pem"),
    clientKey: path.join(dir, "client-key.pem"),
  };
}

export interface KeyAndCert {
  certPem: string;
  keyPem: string;
}

interface Authority {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC_PARAMS, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function exportKeyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey("pkcs8", key);
  return x509.PemConverter.encode(der, "PRIVATE KEY");
}

async function importKeyPair(certPem: string, keyPem: string): Promise<CryptoKeyPair> {
  const der = x509.PemConverter.decode(keyPem)[0];
  if (!der) throw new Error("empty private key PEM");
  const privateKey = await webcrypto.subtle.importKey("pkcs8", der, EC_PARAMS, true, ["sign"]);
  const publicKey = await new x509.X509Certificate(certPem).publicKey.export(EC_PARAMS, ["verify"], globalThis.crypto);
  return { privateKey, publicKey };
}

function randomSerial(): string {
  // 16 random bytes with the top bit cleared: a positive integer as RFC 5280 requires.
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString("hex");
}

/** Creates a self-signed certificate authority (also used by tests to make a foreign CA). */
export async function createCertificateAuthority(commonName: string, now = new Date()): Promise<KeyAndCert> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${commonName}, O=Clinic Exchange Sandbox`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + CA_VALIDITY_DAYS * DAY_MS),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await exportKeyPem(keys.privateKey) };
}

async function loadAuthority(ca: KeyAndCert): Promise<Authority> {
  return { cert: new x509.X509Certificate(ca.certPem), keys: await importKeyPair(ca.certPem, ca.keyPem) };
}

export interface IssueOptions {
  commonName: string;
  usage: "server" | "client";
  validityDays?: number;
  dnsNames?: string[];
  ipAddresses?: string[];
  now?: Date;
}

/** Issues an end-entity certificate signed by `ca` (tests use it for extra or foreign certificates). */
export async function issueCertificate(ca: KeyAndCert, options: IssueOptions): Promise<KeyAndCert> {
  const authority = await loadAuthority(ca);
  const keys = await generateKeys();
  const now = options.now ?? new Date();
  const validityDays = options.validityDays ?? (options.usage === "client" ? CLIENT_CERT_VALIDITY_DAYS : SERVER_CERT_VALIDITY_DAYS);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(
      [options.usage === "server" ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth],
      false,
    ),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(authority.cert),
  ];
  const names: x509.JsonGeneralName[] = [
    ...(options.dnsNames ?? []).map((value) => ({ type: "dns" as const, value })),
    ...(options.ipAddresses ?? []).map((value) => ({ type: "ip" as const, value })),
  ];
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names, false));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${options.commonName}, O=Clinic Exchange Sandbox`,
    issuer: authority.cert.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + validityDays * DAY_MS),
    publicKey: keys.publicKey,
    signingKey: authority.keys.privateKey,
    signingAlgorithm: SIGNING,
    extensions,
  });
  return { certPem: cert.toString("pem"), keyPem: await exportKeyPem(keys.privateKey) };
}

/** RFC 8705 `x5t#S256`: base64url SHA-256 of the certificate's DER encoding. */
export function certificateThumbprint(certPemOrDer: string | Buffer): string {
  const der = typeof certPemOrDer === "string" ? new NodeX509Certificate(certPemOrDer).raw : certPemOrDer;
  return createHash("sha256").update(der).digest("base64url");
}

function readPair(certPath: string, keyPath: string): KeyAndCert | undefined {
  if (!fs.existsSync(certPath) || !fs.existsSync(keyPath)) return undefined;
  return { certPem: fs.readFileSync(certPath, "utf8"), keyPem: fs.readFileSync(keyPath, "utf8") };
}

function writePair(certPath: string, keyPath: string, pair: KeyAndCert): void {
  // Key first: a crash in between leaves an old cert with a new key, which the next start detects
  // (mismatch → regenerate) rather than a new cert without its key.
  writeFileAtomic(keyPath, pair.keyPem, 0o600);
  writeFileAtomic(certPath, pair.certPem, 0o644);
}

function expiresWithin(certPem: string, days: number, now: Date): boolean {
  const cert = new NodeX509Certificate(certPem);
  return new Date(cert.validTo).getTime() - now.getTime() < days * DAY_MS;
}

function pairMatches(pair: KeyAndCert, ca: KeyAndCert): boolean {
  try {
    const cert = new NodeX509Certificate(pair.certPem);
    const caCert = new NodeX509Certificate(ca.certPem);
    return cert.checkIssued(caCert) && cert.verify(caCert.publicKey) && cert.checkPrivateKey(createPrivateKey(pair.keyPem));
  } catch {
    return false;
  }
}


export interface SandboxPki {
  paths: PkiPaths;
  ca: string;
  server: KeyAndCert;
  client: KeyAndCert;
  clientThumbprint: string;
  created: boolean;
}

/**
 * Ensures the PKI exists in `<dataDir>/pki/` and returns it. Creates what is missing; replaces a
 * server certificate that expires within 30 days or does not match its key or the CA. An existing
 * client certificate is never replaced here (only {@link renewClientCertificate} does that), so the
 * portal's configured certificate keeps working across restarts.
 */
export async function ensureSandboxPki(dataDir: string, now = new Date()): Promise<SandboxPki> {
  const paths = pkiPaths(dataDir);
  fs.mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  let created = false;
  let ca = readPair(paths.ca, paths.caKey);
  if (!ca) {
    ca = await createCertificateAuthority("Clinic Exchange Sandbox CA", now);
    writePair(paths.ca, paths.caKey, ca);
    created = true;
  }
  let server = readPair(paths.server, paths.serverKey);
  if (!server || !pairMatches(server, ca) || expiresWithin(server.certPem, SERVER_RENEW_BEFORE_DAYS, now)) {
    server = await issueCertificate(ca, {
      commonName: "localhost",
      usage: "server",
      dnsNames: ["localhost"],
      ipAddresses: ["127.0.0.1", "::1"],
      now,
    });
    writePair(paths.server, paths.serverKey, server);
    created = true;
  }
  let client = readPair(paths.client, paths.clientKey);
  if (!client || !pairMatches(client, ca)) {
    client = await issueCertificate(ca, { commonName: "clinic-exchange-portal", usage: "client", now });
    writePair(paths.client, paths.clientKey, client);
    created = true;
  }
  return { paths, ca: ca.certPem, server, client, clientThumbprint: certificateThumbprint(client.certPem), created };
}

export interface RenewedClientCertificate {
  cert: string;
  key: string;
  thumbprint: string;
  previousThumbprint: string | undefined;
  notAfter: string;
}

/**
 * Issues a new client key and certificate (one year) and replaces `client.pem`/`client-key.pem`.
 * The running sandbox notices the new file: tokens bound to the old certificate stop working and
 * the old certificate can no longer obtain tokens.
 */
export async function renewClientCertificate(dataDir: string, now = new Date()): Promise<RenewedClientCertificate> {
  const pki = await ensureSandboxPki(dataDir, now);
  const caKeyPem = fs.readFileSync(pki.paths.caKey, "utf8");
  const previousThumbprint = pki.clientThumbprint;
  const client = await issueCertificate({ certPem: pki.ca, keyPem: caKeyPem }, { commonName: "clinic-exchange-portal", usage: "client", now });
  writePair(pki.paths.client, pki.paths.clientKey, client);
  return {
    cert: pki.paths.client,
    key: pki.paths.clientKey,
    thumbprint: certificateThumbprint(client.certPem),
    previousThumbprint,
    notAfter: new Date(new NodeX509Certificate(client.certPem).validTo).toISOString(),
  };
}

/**
 * Thumbprint of the currently registered client certificate, re-read when `client.pem` changes on
 * disk (the admin command renews it from another process while the sandbox runs).
 */
export class RegisteredClientCertificate {
  private cached: { ino: number; mtimeMs: number; size: number; thumbprint: string } | undefined;

  constructor(private readonly certPath: string) {}

  thumbprint(): string | undefined {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.certPath);
    } catch {
      return undefined;
    }
    if (!this.cached || this.cached.ino !== stat.ino || this.cached.mtimeMs !== stat.mtimeMs || this.cached.size !== stat.size) {
      try {
        this.cached = { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size, thumbprint: certificateThumbprint(fs.readFileSync(this.certPath, "utf8")) };
      } catch {
        return undefined;
      }
    }
    return this.cached.thumbprint;
  }
}

import { generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "./fs-util";

/**
 * Secrets generated on first start and kept in `<dataDir>/secrets.json` (mode 0600):
 * the portal's OAuth client id and secret, the admin token of the `/_admin` routes, the webhook
 * signing secret and the private key that signs access tokens. The sandbox is a local tool that
 * must be able to show the client secret again (`sandbox:credentials`), so it keeps it in clear.
 */

const SecretsSchema = z.object({
  clientId: z.string().min(1),
  clientSecret: z.string().min(16),
  adminToken: z.string().min(16),
  webhookSecret: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
  /** PKCS#8 PEM, EC P-256: signs access tokens (ES256). */
  tokenSigningKey: z.string().includes("PRIVATE KEY"),
});
export type SandboxSecrets = z.infer<typeof SecretsSchema>;

export function secretsPath(dataDir: string): string {
  return path.resolve(dataDir, "secrets.json");
}

function generate(): SandboxSecrets {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    clientId: `clinic-portal-${randomBytes(4).toString("hex")}`,
    clientSecret: randomBytes(32).toString("base64url"),
    adminToken: randomBytes(24).toString("base64url"),
    webhookSecret: `whsec_${randomBytes(32).toString("base64")}`,
    tokenSigningKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/** Loads the secrets, creating the file on first use. A malformed file is an error, never overwritten. */
export function ensureSandboxSecrets(dataDir: string): SandboxSecrets {
  const file = secretsPath(dataDir);
  if (fs.existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (error) {
      throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix or delete it`);
    }
    const result = SecretsSchema.safeParse(parsed);
    if (!result.success) throw new Error(`${file} is malformed: ${result.error.issues[0]?.message ?? "invalid"}; fix or delete it`);
    return result.data;
  }
  const secrets = generate();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `${JSON.stringify(secrets, null, 2)}\n`, 0o600);
  return secrets;
}

/** The HMAC key of a Standard Webhooks secret: the base64-decoded part after `whsec_`. */
export function webhookSecretKey(secret: string): Buffer {
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  return Buffer.from(encoded, "base64");
}

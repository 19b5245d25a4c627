import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orgKeyCommands } from "@/lib/admin/org-key-commands";
import { CommandInputError, type AdminCommand } from "@/lib/admin/types";
import { auditEvents } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import {
  OrgKeyInputError,
  activeKeysOf,
  addOrgKey,
  createOrgClient,
  ensureOrgClient,
  listOrgClients,
  parsePublicJwk,
  revokeOrgKey,
  setOrgClientDisabled,
} from "./org-keys";

async function keyPair(alg: "ES256" | "RS256" | "ES384" | "PS256" | "EdDSA") {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

describe("parsePublicJwk", () => {
  it("accepts EC P-256 (ES256) and RSA ≥ 2048 (RS256) public keys; kid defaults to the thumbprint", async () => {
    const ec = await parsePublicJwk((await keyPair("ES256")).publicJwk);
    expect(ec.alg).toBe("ES256");
    expect(ec.kid).toBe(ec.thumbprint);
    expect(ec.jwk).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    const rsa = await parsePublicJwk(JSON.stringify({ ...(await keyPair("RS256")).publicJwk, kid: "rsa-2026" }));
    expect(rsa).toMatchObject({ alg: "RS256", kid: "rsa-2026" });
  });

  it("refuses private keys, symmetric keys and other algorithms with a clear message", async () => {
    const refused = async (input: unknown, message: RegExp) => {
      await expect(parsePublicJwk(input)).rejects.toThrow(OrgKeyInputError);
      await expect(parsePublicJwk(input)).rejects.toThrow(message);
    };
    await refused((await keyPair("ES256")).privateJwk, /private key/);
    await refused((await keyPair("RS256")).privateJwk, /private key/);
    await refused({ kty: "oct", k: "c2VjcmV0" }, /private key|Symmetric/);
    await refused({ kty: "oct" }, /Symmetric/);
    await refused((await keyPair("ES384")).publicJwk, /P-256/);
    await refused((await keyPair("EdDSA")).publicJwk, /Unsupported key type/);
    await refused({ ...(await keyPair("RS256")).publicJwk, alg: "PS256" }, /Only RS256/);
    await refused({ ...(await keyPair("ES256")).publicJwk, alg: "RS256" }, /ES256 only/);
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "jwk" });
    await refused(small, /2048/);
    await refused("-----BEGIN PUBLIC KEY-----", /not valid JSON/);
    await refused({ keys: [] }, /JWK Set/);
    await refused({ ...(await keyPair("ES256")).publicJwk, use: "enc" }, /"use"/);
    await refused({ kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA" }, /32 bytes/);
  });
});

describe.each(testDatabases())("organization clients and keys on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let dir: string;
  beforeAll(async () => {
    database = await target.open();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "org-keys-"));
  });
  afterAll(async () => {
    await database?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("registers several keys per client, revokes one at a time, disables a client", async () => {
    const { client } = await ensureOrgClient(database.db, { clientId: "his-1", name: "HIS" });
    expect((await ensureOrgClient(database.db, { clientId: "his-1" })).created).toBe(false);
    await expect(createOrgClient(database.db, { clientId: "his-1" })).rejects.toThrow(/already exists/);
    await expect(createOrgClient(database.db, { clientId: "bad id with spaces" })).rejects.toThrow(OrgKeyInputError);
    const a = await keyPair("ES256");
    const b = await keyPair("RS256");
    await addOrgKey(database.db, { clientId: "his-1", jwk: { ...a.publicJwk, kid: "a" } });
    await addOrgKey(database.db, { clientId: "his-1", jwk: { ...b.publicJwk, kid: "b" } });
    await expect(addOrgKey(database.db, { clientId: "his-1", jwk: { ...a.publicJwk, kid: "a2" } })).rejects.toThrow(/already registered/);
    await expect(addOrgKey(database.db, { clientId: "nobody", jwk: (await keyPair("ES256")).publicJwk })).rejects.toThrow(/No organization client/);
    expect((await activeKeysOf(database.db, "his-1")).keys.map((k) => k.kid)).toEqual(["a", "b"]);
    await revokeOrgKey(database.db, { clientId: "his-1", kid: "a" });
    expect((await revokeOrgKey(database.db, { clientId: "his-1", kid: "a" })).alreadyRevoked).toBe(true);
    expect((await activeKeysOf(database.db, "his-1")).keys.map((k) => k.kid)).toEqual(["b"]);
    await setOrgClientDisabled(database.db, "his-1", true);
    expect((await activeKeysOf(database.db, "his-1")).keys).toEqual([]);
    const listed = (await listOrgClients(database.db)).find((c) => c.id === client.id)!;
    expect(listed.disabledAt).not.toBeNull();
    expect(listed.keys.map((k) => [k.kid, Boolean(k.revokedAt)])).toEqual([
      ["a", true],
      ["b", false],
    ]);
  });

  const command = (name: string): AdminCommand => orgKeyCommands.find((c) => c.name === name)!;
  const run = (name: string, flags: Record<string, string[]>) => command(name).run({ flags, stdin: async () => "", db: database.db });

  it("CLI: org-key:add creates the client when missing, org-key:list shows keys, org-key:revoke revokes; all audited", async () => {
    const { publicJwk, privateJwk } = await keyPair("ES256");
    const file = path.join(dir, "pub.json");
    fs.writeFileSync(file, JSON.stringify({ ...publicJwk, kid: "cli-1" }));
    const added = await run("org-key:add", { org: ["lab-cli"], "jwk-file": [file], name: ["Lab"] });
    expect(added.json).toMatchObject({ clientId: "lab-cli", clientCreated: true, kid: "cli-1", alg: "ES256" });
    const listed = await run("org-key:list", {});
    expect(listed.text).toContain("lab-cli");
    expect(listed.text).toContain("cli-1");
    expect((listed.json as { clientId: string; keys: { kid: string }[] }[]).find((c) => c.clientId === "lab-cli")?.keys[0]?.kid).toBe("cli-1");
    const revoked = await run("org-key:revoke", { org: ["lab-cli"], kid: ["cli-1"] });
    expect(revoked.json).toMatchObject({ alreadyRevoked: false });
    const actions = (await database.db.select().from(auditEvents).where(eq(auditEvents.actorLabel, "admin-cli"))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["org_client.create", "org_key.add", "org_key.revoke"]));

    // A private key is refused with a clear message, and no client is left behind.
    fs.writeFileSync(file, JSON.stringify(privateJwk));
    await expect(run("org-key:add", { org: ["never-created"], "jwk-file": [file] })).rejects.toThrow(CommandInputError);
    await expect(run("org-key:add", { org: ["never-created"], "jwk-file": [file] })).rejects.toThrow(/private key/);
    expect((await listOrgClients(database.db)).some((c) => c.clientId === "never-created")).toBe(false);
    await expect(run("org-key:add", { org: ["x"], "jwk-file": [path.join(dir, "missing.json")] })).rejects.toThrow(/Cannot read/);
    await expect(run("org-key:revoke", { org: ["lab-cli"], kid: ["nope"] })).rejects.toThrow(CommandInputError);
    await expect(run("org-key:add", { "jwk-file": [file] })).rejects.toThrow(/--org is required/);
  });
});

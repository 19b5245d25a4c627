import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAccessCommands } from "@/lib/admin/api-access-commands";
import { CommandInputError } from "@/lib/admin/types";
import { apiKeys } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { ApiAccessInputError, authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "./credentials";
import { hashSecret, randomBase62 } from "./secrets";

describe("secrets", () => {
  it("are base62 of the asked length and differ each time", () => {
    const a = randomBase62(40);
    expect(a).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(randomBase62(40)).not.toBe(a);
    expect(hashSecret("x")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe.each(testDatabases())("API keys and admin commands on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());

  const run = (name: string, flags: Record<string, string[]>) =>
    apiAccessCommands.find((c) => c.name === name)!.run({ flags, stdin: async () => "", db: database.db });

  it("stores only the hash and a visible prefix; lists never show the hash", async () => {
    const { key, record } = await createApiKey(database.db, { name: "Lab", environment: "sandbox", scopes: ["claims:read"] });
    expect(key).toMatch(/^cxk_test_[A-Za-z0-9]{40}$/);
    expect(record.prefix).toBe(key.slice(0, 15));
    const rows = await database.db.select().from(apiKeys);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows.find((r) => r.id === record.id)?.hash).toBe(hashSecret(key));
    expect(Object.keys((await listApiKeys(database.db))[0]!)).not.toContain("hash");
    expect((await authenticateApiKey(database.db, key, "sandbox")).ok).toBe(true);
  });

  it("validates names, scopes and environments", async () => {
    await expect(createApiKey(database.db, { name: " ", environment: "sandbox", scopes: ["claims:read"] })).rejects.toThrow(ApiAccessInputError);
    await expect(createApiKey(database.db, { name: "x", environment: "staging", scopes: ["claims:read"] })).rejects.toThrow(/sandbox or production/);
    await expect(createApiKey(database.db, { name: "x", environment: "sandbox", scopes: ["claims:write"] })).rejects.toThrow(/Unknown scope/);
    await expect(revokeApiKey(database.db, { prefix: "cxk_test_nothing" })).rejects.toThrow(/No API key/);
  });

  it("api-key:create prints the key once; list and revoke by prefix or id", async () => {
    const created = (await run("api-key:create", { name: ["Reporting"], env: ["production"], scope: ["claims:read"] })).json as { key: string; prefix: string; id: string };
    expect(created.key).toMatch(/^cxk_live_/);
    const listed = (await run("api-key:list", {})).json as { prefix: string; revokedAt: string | null }[];
    expect(listed.find((k) => k.prefix === created.prefix)).toMatchObject({ revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(created.key);
    await run("api-key:revoke", { prefix: [created.prefix] });
    expect((await authenticateApiKey(database.db, created.key, "production")).ok).toBe(false);
    const other = (await run("api-key:create", { name: ["Other"], scope: ["claims:read"] })).json as { id: string; environment: string };
    expect(other.environment).toBe("sandbox");
    expect(((await run("api-key:revoke", { id: [other.id] })).json as { revokedAt: string }).revokedAt).toBeTruthy();
    await expect(run("api-key:create", { name: ["No scope"] })).rejects.toThrow(CommandInputError);
    await expect(run("api-key:revoke", {})).rejects.toThrow(CommandInputError);
  });

  it("oauth-client:create prints id and secret once; list and revoke", async () => {
    const created = (await run("oauth-client:create", { name: ["Partner"], scope: ["claims:read"] })).json as { clientId: string; clientSecret: string };
    expect(created.clientId).toMatch(/^cxc_/);
    expect(created.clientSecret).toMatch(/^cxs_/);
    const listed = (await run("oauth-client:list", {})).json as { clientId: string }[];
    expect(listed.map((c) => c.clientId)).toContain(created.clientId);
    expect(JSON.stringify(listed)).not.toContain(created.clientSecret);
    const revoked = (await run("oauth-client:revoke", { "client-id": [created.clientId] })).json as { revokedAt: string };
    expect(revoked.revokedAt).toBeTruthy();
  });
});

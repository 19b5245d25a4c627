import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayTokens } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import {
  ApiAccessInputError,
  authenticateGatewayToken,
  createGatewayToken,
  listGatewayTokens,
  revokeGatewayToken,
} from "./credentials";
import { hashSecret } from "./secrets";

describe.each(testDatabases())("gateway tokens on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("creates a token shown once, stored only as its SHA-256 hash with a visible prefix", async () => {
    const { token, record } = await createGatewayToken(database.db, { name: "  Claims assistant ", createdBy: "admin-cli" });
    expect(token).toMatch(/^cxg_[A-Za-z0-9]{40}$/);
    expect(record.prefix).toBe(token.slice(0, 10));
    expect(record.name).toBe("Claims assistant");
    expect(record).not.toHaveProperty("hash");
    const [row] = await database.db.select().from(gatewayTokens).where(eq(gatewayTokens.id, record.id));
    expect(row!.hash).toBe(hashSecret(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await listGatewayTokens(database.db);
    expect(listed.find((t) => t.id === record.id)).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain(row!.hash);
  });

  it("refuses empty and over-long names", async () => {
    await expect(createGatewayToken(database.db, { name: "  " })).rejects.toBeInstanceOf(ApiAccessInputError);
    await expect(createGatewayToken(database.db, { name: "x".repeat(101) })).rejects.toBeInstanceOf(ApiAccessInputError);
  });

  it("authenticates Bearer tokens and says why others fail", async () => {
    const { token, record } = await createGatewayToken(database.db, { name: "auth" });
    const now = new Date();
    const ok = await authenticateGatewayToken(database.db, `Bearer ${token}`, now);
    expect(ok).toMatchObject({ ok: true, token: { id: record.id } });
    expect((await authenticateGatewayToken(database.db, `bearer   ${token}`, now)).ok).toBe(true);
    expect(await authenticateGatewayToken(database.db, null)).toEqual({ ok: false, reason: "missing" });
    expect(await authenticateGatewayToken(database.db, "   ")).toEqual({ ok: false, reason: "missing" });
    expect(await authenticateGatewayToken(database.db, `Basic ${token}`)).toEqual({ ok: false, reason: "malformed" });
    expect(await authenticateGatewayToken(database.db, "Bearer")).toEqual({ ok: false, reason: "malformed" });
    expect(await authenticateGatewayToken(database.db, `Bearer ${token} extra`)).toEqual({ ok: false, reason: "malformed" });
    // One character changed (never to itself: the token may already end in "x").
    const altered = `${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`;
    expect(await authenticateGatewayToken(database.db, `Bearer ${altered}`)).toEqual({ ok: false, reason: "unknown" });
    expect(await authenticateGatewayToken(database.db, "Bearer not-a-token")).toEqual({ ok: false, reason: "unknown" });
    const [row] = await database.db.select().from(gatewayTokens).where(eq(gatewayTokens.id, record.id));
    expect(row!.lastUsedAt?.getTime()).toBe(now.getTime());
  });

  it("writes last_used_at at most once a minute", async () => {
    const { token, record } = await createGatewayToken(database.db, { name: "touch" });
    const t0 = new Date("2026-01-01T10:00:00Z");
    await authenticateGatewayToken(database.db, `Bearer ${token}`, t0);
    await authenticateGatewayToken(database.db, `Bearer ${token}`, new Date(t0.getTime() + 30_000));
    let [row] = await database.db.select().from(gatewayTokens).where(eq(gatewayTokens.id, record.id));
    expect(row!.lastUsedAt?.getTime()).toBe(t0.getTime());
    const t2 = new Date(t0.getTime() + 61_000);
    await authenticateGatewayToken(database.db, `Bearer ${token}`, t2);
    [row] = await database.db.select().from(gatewayTokens).where(eq(gatewayTokens.id, record.id));
    expect(row!.lastUsedAt?.getTime()).toBe(t2.getTime());
  });

  it("revokes by prefix or id, at once; revoking again is harmless", async () => {
    const a = await createGatewayToken(database.db, { name: "revoke-a" });
    const b = await createGatewayToken(database.db, { name: "revoke-b" });
    const revoked = await revokeGatewayToken(database.db, { prefix: a.record.prefix });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await authenticateGatewayToken(database.db, `Bearer ${a.token}`)).toMatchObject({ ok: false, reason: "revoked", token: { id: a.record.id } });
    expect((await authenticateGatewayToken(database.db, `Bearer ${b.token}`)).ok).toBe(true);
    await revokeGatewayToken(database.db, { id: b.record.id });
    expect((await authenticateGatewayToken(database.db, `Bearer ${b.token}`)).ok).toBe(false);
    expect((await revokeGatewayToken(database.db, { id: b.record.id })).id).toBe(b.record.id);
    await expect(revokeGatewayToken(database.db, {})).rejects.toBeInstanceOf(ApiAccessInputError);
    await expect(revokeGatewayToken(database.db, { id: "nope" })).rejects.toBeInstanceOf(ApiAccessInputError);
    await expect(revokeGatewayToken(database.db, { prefix: "cxg_zzzzzz" })).rejects.toThrow(/No gateway token/);
  });

  it("create --json prints the token once; list never shows it; revoke by prefix works", async () => {
    const { gatewayCommands } = await import("@/lib/admin/gateway-commands");
    const { databaseCommands } = await import("@/lib/admin/commands");
    const command = (name: string) => {
      const found = gatewayCommands.find((c) => c.name === name);
      expect(databaseCommands).toContain(found);
      return found!;
    };
    const run = (name: string, flags: Record<string, string[]>) => command(name).run({ flags, stdin: async () => "", db: database.db });
    const created = (await run("gateway-token:create", { name: ["CLI bot"] })).json as { id: string; token: string; prefix: string };
    expect(created.token).toMatch(/^cxg_/);
    expect((await authenticateGatewayToken(database.db, `Bearer ${created.token}`)).ok).toBe(true);
    const list = await run("gateway-token:list", {});
    expect(JSON.stringify(list)).not.toContain(created.token);
    expect(list.text).toContain(created.prefix);
    await run("gateway-token:revoke", { prefix: [created.prefix] });
    expect((await authenticateGatewayToken(database.db, `Bearer ${created.token}`)).ok).toBe(false);
    await expect(run("gateway-token:create", {})).rejects.toThrow(/--name is required/);
    await expect(run("gateway-token:revoke", { id: ["bad"] })).rejects.toThrow(/not a UUID/);
  });
});

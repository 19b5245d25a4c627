import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { describePlatform, testConnection } from "./status";
import { startPlatformSandbox, type PlatformSandbox } from "./testing";

let sbx: PlatformSandbox;
let stranger: PlatformSandbox;
let database: Database;

beforeAll(async () => {
  [sbx, stranger] = await Promise.all([startPlatformSandbox(), startPlatformSandbox()]);
  database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
});

afterAll(async () => {
  await database?.close();
  await Promise.all([sbx?.stop(), stranger?.stop()]);
});

describe("describePlatform", () => {
  it("reports the environment, base URL and the client certificate's validity", () => {
    const now = new Date();
    const description = describePlatform({ config: sbx.config, now });
    expect(description).toMatchObject({ configured: true, environment: "sandbox", baseUrl: sbx.url, providerOrgId: "clinic-001" });
    if (!description.configured || "error" in description.certificate) throw new Error("expected certificate facts");
    const cert = description.certificate;
    expect(cert.subject).toMatch(/CN=clinic-exchange-portal/);
    expect(cert.issuer).toMatch(/CN=/);
    expect(cert.notAfter.getTime()).toBeGreaterThan(now.getTime());
    expect(cert.daysLeft).toBeGreaterThanOrEqual(363);
    expect(cert).toMatchObject({ expiresSoon: false, expired: false });

    const later = describePlatform({ config: sbx.config, now: new Date(cert.notAfter.getTime() - 10 * 86_400_000) });
    expect(later.configured && !("error" in later.certificate) && later.certificate).toMatchObject({ daysLeft: 10, expiresSoon: true, expired: false });
    const after = describePlatform({ config: sbx.config, now: new Date(cert.notAfter.getTime() + 86_400_000) });
    expect(after.configured && !("error" in after.certificate) && after.certificate).toMatchObject({ expiresSoon: false, expired: true });
  });

  it("says what is missing when the platform is not configured", () => {
    const description = describePlatform({ config: undefined, now: new Date() });
    // Under vitest the PLATFORM_* variables are not set.
    if (process.env.PLATFORM_BASE_URL) return;
    expect(description).toMatchObject({ configured: false, variable: "PLATFORM_BASE_URL" });
  });
});

describe("testConnection", () => {
  it("passes TLS, token and status against the sandbox", async () => {
    const steps = await testConnection({ db: database.db, config: sbx.config });
    expect(steps.map((s) => [s.step, s.ok])).toEqual([
      ["tls", true],
      ["token", true],
      ["status", true],
    ]);
    expect(steps[0]?.detail).toMatch(/TLSv1\.[23]/);
    expect(steps[2]?.detail).toMatch(/200/);
  });

  it("fails at TLS with a client certificate of another CA", async () => {
    const config = { ...sbx.config, tls: { ...sbx.config.tls, certFile: stranger.config.tls.certFile, keyFile: stranger.config.tls.keyFile } };
    const steps = await testConnection({ db: database.db, config, timeoutMs: 3_000 });
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ step: "tls", ok: false });
  });

  it("fails at the token step with a wrong client secret", async () => {
    const steps = await testConnection({ db: database.db, config: { ...sbx.config, clientSecret: "wrong" } });
    expect(steps.map((s) => [s.step, s.ok])).toEqual([
      ["tls", true],
      ["token", false],
    ]);
    expect(steps[1]?.detail).toMatch(/401/);
  });
});

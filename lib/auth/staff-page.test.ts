import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import type { Database } from "@/lib/db";
import { testDatabases } from "@/lib/testing/databases";
import { signInWithPassword } from "./credentials";
import { checkSession } from "./sessions";
import { staffPage } from "./staff-page";
import { createUser } from "./users";

/*
 * One audit row per user view (docs/decisions/078). A staff page renders through `staffPage`, as
 * Next.js would call it: real users and server-side sessions; only Auth.js's cookie transport and
 * the request's headers and cookies are replaced (no HTTP request exists here). Two tabs open the
 * same claim (two user views), then ten live events each make both tabs render the page again,
 * presenting the view's key as the browser's live refresh does (cookie `cx-live-view`).
 */
const request: { database?: Database; sid?: string; cookie?: string } = {};

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-request-id": "00000000-0000-4000-8000-000000000078", "x-forwarded-for": "10.1.2.3" }),
  cookies: async () => ({ get: (name: string) => (name === "cx-live-view" && request.cookie ? { name, value: request.cookie } : undefined) }),
}));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("./auth", () => ({
  auth: async () => {
    if (!request.database || !request.sid) return null;
    const check = await checkSession(request.database.db, request.sid);
    return check.ok ? { user: check.user, sessionId: request.sid } : null;
  },
}));

const CLAIM = "8f0c2c52-8a35-4bb9-9a3e-3d2f4f9d6a11";
const OTHER_CLAIM = "1c7b0d7e-0a53-4a3c-8d55-2a7f1c4b9e02";

/** A claim page as the portal writes it: reads, audits what it shows, hands the key to its live refresh. */
const claimPage = staffPage("claims", async ({ params }: { params: Promise<{ id: string }> }, ctx) => {
  const { id } = await params;
  return ctx.audit({ action: "claim.view", target: { type: "submission", id }, outcome: "success" });
});
const render = async (id: string, presented?: string) => {
  request.cookie = presented;
  return (await claimPage({ params: Promise.resolve({ id }) })) as string;
};

describe.each(testDatabases())("staffPage: one audit row per user view on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  const holder = globalThis as typeof globalThis & { __clinicDb?: Promise<Database> };
  const signIn = async (email: string) => {
    const signedIn = await signInWithPassword(database.db, { email, password: "page-pass-2026" });
    if (!signedIn.ok) throw new Error(`sign-in failed for ${email}`);
    return signedIn.user.sessionId;
  };
  const views = async () => (await listAuditEvents(database.db, { action: "claim.view", limit: 200 })).rows;

  beforeAll(async () => {
    database = await target.open();
    holder.__clinicDb = Promise.resolve(database);
    request.database = database;
    await createUser(database.db, { email: "billing@page.example", roles: ["billing"], password: "page-pass-2026" });
    await createUser(database.db, { email: "billing2@page.example", roles: ["billing"], password: "page-pass-2026" });
  });
  afterAll(async () => {
    holder.__clinicDb = undefined;
    request.database = undefined;
    await database?.dispose();
  });

  it("10 live refreshes in 2 tabs write no row: only the 2 user views are audited (every render without the key: 20)", async () => {
    request.sid = await signIn("billing@page.example");
    const start = (await views()).length;
    const tabs = [await render(CLAIM), await render(CLAIM)];
    expect((await views()).length - start).toBe(2);
    for (let event = 0; event < 10; event++) for (const key of tabs) await render(CLAIM, key);
    const withKey = (await views()).length - start;
    // The same 20 renders as the pages did before staffPage: each one a new row.
    for (let event = 0; event < 10; event++) for (let tab = 0; tab < 2; tab++) await render(CLAIM);
    const withoutKey = (await views()).length - start - withKey;
    console.info(`[staff-page] 2 user views + 10 live events × 2 tabs: ${withKey} audit rows with the view key (renders without it: ${withoutKey} more)`);
    expect(withKey).toBe(2);
    expect(withoutKey).toBe(20);
    const rows = (await views()).slice(0, 2);
    expect(rows.every((r) => r.actorLabel === "billing@page.example" && r.targetId === CLAIM && r.requestId === "00000000-0000-4000-8000-000000000078")).toBe(true);
  });

  it("a key stands only for its own view: another record, a forged key, another user or session are audited", async () => {
    request.sid = await signIn("billing@page.example");
    const key = await render(CLAIM);
    const before = (await views()).length;
    await render(OTHER_CLAIM, key); // the key of another record
    await render(CLAIM, randomBytes(32).toString("base64url")); // a key nobody gave
    await render(CLAIM, `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`); // a key altered
    request.sid = await signIn("billing2@page.example");
    await render(CLAIM, key); // another user presenting it
    request.sid = await signIn("billing@page.example");
    await render(CLAIM, key); // the same user, a new session
    expect((await views()).length - before).toBe(5);
  });
});

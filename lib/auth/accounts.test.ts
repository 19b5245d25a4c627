import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { ROLES, users } from "@/lib/db";
import { testDatabases } from "@/lib/testing/databases";
import { ROLE_NAMES } from "./account-policy";
import { changePasswordSchema } from "./account-schemas";
import { changeOwnPassword, listUserAccounts, resetUserPassword, setAccountDisabled, setUserRoles, temporaryPassword, unlockUser } from "./accounts";
import { LOCKOUT_THRESHOLD, signInWithPassword } from "./credentials";
import { checkSession } from "./sessions";
import { createUser, UserInputError } from "./users";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "staple gun orbit lantern";

/** An administrator acting on the screen (their user id makes the self rules apply). */
const adminCaller = (user: { id: string; email: string }) => ({ actor: { kind: "user" as const, id: user.id, email: user.email, roles: ["admin"] }, userId: user.id, requestId: "r-admin", ip: "10.0.0.9" });

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserInputError) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("account policy", () => {
  it("the browser's role list is lib/db's ROLES", () => {
    expect([...ROLE_NAMES]).toEqual([...ROLES]);
  });

  it("the change form needs the current password, a long enough new one twice, different from the current", () => {
    const errors = (input: Record<string, string>) => {
      const result = changePasswordSchema.safeParse(input);
      return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
    };
    expect(errors({ currentPassword: "", newPassword: "short", confirmPassword: "short" })).toEqual({ currentPassword: "currentRequired", newPassword: "tooShort" });
    expect(errors({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}x` })).toEqual({ confirmPassword: "mismatch" });
    expect(errors({ currentPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD })).toEqual({ newPassword: "sameAsCurrent" });
    expect(errors({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).toEqual({});
  });

  it("temporary passwords meet the policy and differ", () => {
    const a = temporaryPassword();
    expect(a).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect(a.length).toBeGreaterThanOrEqual(12);
    expect(temporaryPassword()).not.toBe(a);
  });
});

describe.each(testDatabases())("running accounts on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let admin: { id: string; email: string };
  let clerk: { id: string; email: string };
  beforeAll(async () => {
    database = await target.open();
    admin = await createUser(database.db, { email: "boss@clinic.example", roles: ["admin"], password: PASSWORD });
    clerk = await createUser(database.db, { email: "clerk@clinic.example", roles: ["billing"], password: PASSWORD });
  });
  afterAll(async () => database?.dispose());

  const audited = async (action: string) => (await listAuditEvents(database.db, { action })).rows;
  const row = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;

  it("lists users with roles, state and last sign-in", async () => {
    const before = await listUserAccounts(database.db);
    expect(before.find((u) => u.id === clerk.id)).toMatchObject({ roles: ["billing"], state: "active", lastSignInAt: null, mustChangePassword: false });
    const signedIn = await signInWithPassword(database.db, { email: clerk.email, password: PASSWORD });
    expect(signedIn.ok).toBe(true);
    const after = await listUserAccounts(database.db);
    expect(after.find((u) => u.id === clerk.id)!.lastSignInAt).toBeInstanceOf(Date);
  });

  it("resets a password: the old one stops working, sessions end, the new one must be changed; audited without the password", async () => {
    const before = await signInWithPassword(database.db, { email: clerk.email, password: PASSWORD });
    if (!before.ok) throw new Error("sign-in failed");
    const reset = await resetUserPassword(database.db, adminCaller(admin), { id: clerk.id });
    expect((await checkSession(database.db, before.user.sessionId)).ok).toBe(false);
    expect(await signInWithPassword(database.db, { email: clerk.email, password: PASSWORD })).toEqual({ ok: false, reason: "bad_password" });
    const withTemporary = await signInWithPassword(database.db, { email: clerk.email, password: reset.temporaryPassword });
    expect(withTemporary).toMatchObject({ ok: true, user: { mustChangePassword: true } });
    const [entry] = await audited("user.reset_password");
    expect(entry).toMatchObject({ actorLabel: admin.email, targetType: "user", targetId: clerk.id, outcome: "success", requestId: "r-admin", ip: "10.0.0.9" });
    expect(JSON.stringify(entry)).not.toContain(reset.temporaryPassword);
    // An administrator resets others; their own goes through "Change my password".
    expect(await refusal(resetUserPassword(database.db, adminCaller(admin), { id: admin.id }))).toBe("selfReset");

    // The clerk changes it: the pending change is done, the session in use stays, others end.
    if (!withTemporary.ok) throw new Error("sign-in failed");
    const other = await signInWithPassword(database.db, { email: clerk.email, password: reset.temporaryPassword });
    if (!other.ok) throw new Error("sign-in failed");
    const clerkCaller = { actor: { kind: "user" as const, id: clerk.id, email: clerk.email, roles: ["billing"] }, userId: clerk.id };
    expect(await refusal(changeOwnPassword(database.db, clerkCaller, { currentPassword: "not it at all", newPassword: NEW_PASSWORD, sessionId: withTemporary.user.sessionId }))).toBe("wrongPassword");
    expect((await audited("user.change_password"))[0]).toMatchObject({ outcome: "failure", details: { reason: "wrong_current_password" } });
    await changeOwnPassword(database.db, clerkCaller, { currentPassword: reset.temporaryPassword, newPassword: NEW_PASSWORD, sessionId: withTemporary.user.sessionId });
    expect((await row(clerk.id)).mustChangePassword).toBe(false);
    expect((await checkSession(database.db, withTemporary.user.sessionId)).ok).toBe(true);
    expect((await checkSession(database.db, other.user.sessionId)).ok).toBe(false);
    expect(await signInWithPassword(database.db, { email: clerk.email, password: reset.temporaryPassword })).toEqual({ ok: false, reason: "bad_password" });
    expect(await signInWithPassword(database.db, { email: clerk.email, password: NEW_PASSWORD })).toMatchObject({ ok: true, user: { mustChangePassword: false } });
    expect((await audited("user.change_password"))[0]).toMatchObject({ outcome: "success", actorLabel: clerk.email, targetId: clerk.id, details: { wasRequired: true } });
  });

  it("changes roles, never leaving the clinic without an administrator nor an administrator without their own role", async () => {
    await setUserRoles(database.db, adminCaller(admin), { id: clerk.id }, ["billing", "manager"]);
    expect((await row(clerk.id)).roles).toEqual(["billing", "manager"]);
    expect((await audited("user.set_roles"))[0]).toMatchObject({ targetId: clerk.id, details: { from: ["billing"], to: ["billing", "manager"] } });
    // The CLI (no user) cannot take the role from the last active administrator either.
    const cli = { actor: { kind: "system" as const, name: "admin-cli" } };
    expect(await refusal(setUserRoles(database.db, cli, { id: admin.id }, ["manager"]))).toBe("lastAdmin");
    expect(await refusal(setUserRoles(database.db, adminCaller(admin), { id: admin.id }, ["manager"]))).toBe("selfLockout");
    expect(await refusal(setUserRoles(database.db, cli, { id: clerk.id }, []))).toBe("invalid");
    expect(await refusal(setUserRoles(database.db, cli, { id: clerk.id }, ["nurse"]))).toBe("invalid");
    expect(await refusal(setUserRoles(database.db, cli, { id: "00000000-0000-4000-8000-000000000000" }, ["billing"]))).toBe("notFound");
    expect((await row(admin.id)).roles).toEqual(["admin"]);
    // With a second administrator, the first may lose the role (done by someone else).
    await setUserRoles(database.db, cli, { id: clerk.id }, ["billing", "admin"]);
    await setUserRoles(database.db, adminCaller(clerk), { id: admin.id }, ["admin", "manager"]);
    await setUserRoles(database.db, cli, { id: clerk.id }, ["billing"]);
    expect((await row(clerk.id)).roles).toEqual(["billing"]);
  });

  it("disables and enables, never the last administrator nor oneself", async () => {
    const session = await signInWithPassword(database.db, { email: clerk.email, password: NEW_PASSWORD });
    if (!session.ok) throw new Error("sign-in failed");
    await setAccountDisabled(database.db, adminCaller(admin), { id: clerk.id }, true);
    expect((await checkSession(database.db, session.user.sessionId)).ok).toBe(false);
    expect(await signInWithPassword(database.db, { email: clerk.email, password: NEW_PASSWORD })).toEqual({ ok: false, reason: "disabled" });
    await setAccountDisabled(database.db, adminCaller(admin), { id: clerk.id }, false);
    expect((await signInWithPassword(database.db, { email: clerk.email, password: NEW_PASSWORD })).ok).toBe(true);
    expect((await audited("user.disable"))[0]).toMatchObject({ targetId: clerk.id, actorLabel: admin.email });
    expect((await audited("user.enable"))[0]).toMatchObject({ targetId: clerk.id });
    expect(await refusal(setAccountDisabled(database.db, adminCaller(admin), { id: admin.id }, true))).toBe("selfLockout");
    expect(await refusal(setAccountDisabled(database.db, { actor: { kind: "system", name: "admin-cli" } }, { email: admin.email }, true))).toBe("lastAdmin");
    expect((await row(admin.id)).disabledAt).toBeNull();
  });

  it("unlocks a locked account and forgets its failures", async () => {
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++) await signInWithPassword(database.db, { email: clerk.email, password: "wrong password!" });
    expect(await signInWithPassword(database.db, { email: clerk.email, password: NEW_PASSWORD })).toEqual({ ok: false, reason: "locked" });
    expect((await listUserAccounts(database.db)).find((u) => u.id === clerk.id)!.state).toBe("locked");
    expect(await unlockUser(database.db, adminCaller(admin), { id: clerk.id })).toMatchObject({ wasLocked: true });
    expect((await signInWithPassword(database.db, { email: clerk.email, password: NEW_PASSWORD })).ok).toBe(true);
    expect((await audited("user.unlock"))[0]).toMatchObject({ targetId: clerk.id, actorLabel: admin.email, details: { wasLocked: true } });
  });

  it("outside the sandbox, signing in with the published demo password asks for a change; in the sandbox it does not", async () => {
    const demo = await createUser(database.db, { email: "demo-like@clinic.example", roles: ["front_desk"], password: "demo-pass-2026" });
    // In the sandbox (no published password given) the demo users keep it for training.
    expect(await signInWithPassword(database.db, { email: demo.email, password: "demo-pass-2026" })).toMatchObject({ ok: true, user: { mustChangePassword: false } });
    const outside = await signInWithPassword(database.db, { email: demo.email, password: "demo-pass-2026" }, { publishedPassword: "demo-pass-2026" });
    expect(outside).toMatchObject({ ok: true, user: { mustChangePassword: true } });
    if (!outside.ok) throw new Error("sign-in failed");
    expect((await checkSession(database.db, outside.user.sessionId))).toMatchObject({ ok: true, user: { mustChangePassword: true } });
    expect((await audited("user.require_password_change"))[0]).toMatchObject({ targetId: demo.id, details: { reason: "published_password" } });
    // Another password does not trigger it.
    expect(await signInWithPassword(database.db, { email: clerk.email, password: NEW_PASSWORD }, { publishedPassword: "demo-pass-2026" })).toMatchObject({ ok: true, user: { mustChangePassword: false } });
  });
});

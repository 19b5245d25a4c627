import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth";
import { signInWithPassword } from "@/lib/auth/credentials";
import { auditEvents, users } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { databaseCommands } from "./commands";
import { CommandInputError } from "./types";

const PASSWORD = "correct horse battery";

for (const target of testDatabases()) {
  describe(`user commands (${target.name})`, () => {
    let database: Awaited<ReturnType<typeof target.open>>;
    beforeAll(async () => {
      database = await target.open();
      await createUser(database.db, { email: "root@clinic.example", roles: ["admin"], password: PASSWORD });
      await createUser(database.db, { email: "clerk@clinic.example", roles: ["front_desk"], password: PASSWORD });
    }, 120_000);
    afterAll(() => database?.dispose());

    const run = async (name: string, flags: Record<string, string[]>, input = "") => {
      const command = databaseCommands.find((c) => c.name === name);
      if (!command) throw new Error(`no command ${name}`);
      return command.run({ flags, stdin: async () => input, db: database.db });
    };
    const auditOf = async (action: string) => database.db.select().from(auditEvents).where(eq(auditEvents.action, action));
    const user = async (email: string) => (await database.db.select().from(users).where(eq(users.email, email)))[0]!;

    it("user:reset-password prints a temporary password once; it signs in and must be changed; the old one no longer works", async () => {
      const result = await run("user:reset-password", { email: ["clerk@clinic.example"] });
      const { temporaryPassword } = result.json as { temporaryPassword: string };
      expect(result.text).toContain(temporaryPassword);
      expect(await signInWithPassword(database.db, { email: "clerk@clinic.example", password: PASSWORD })).toEqual({ ok: false, reason: "bad_password" });
      expect(await signInWithPassword(database.db, { email: "clerk@clinic.example", password: temporaryPassword })).toMatchObject({ ok: true, user: { mustChangePassword: true } });
      const [entry] = await auditOf("user.reset_password");
      expect(entry).toMatchObject({ actorKind: "system", actorLabel: "admin-cli", targetId: (await user("clerk@clinic.example")).id });
      expect(JSON.stringify(entry)).not.toContain(temporaryPassword);

      // A chosen temporary password comes on standard input and is not printed.
      const chosen = await run("user:reset-password", { email: ["clerk@clinic.example"], "password-stdin": ["true"] }, "a chosen temporary one\n");
      expect(chosen.text).not.toContain("a chosen temporary one");
      expect((await signInWithPassword(database.db, { email: "clerk@clinic.example", password: "a chosen temporary one" })).ok).toBe(true);
      await expect(run("user:reset-password", { email: ["clerk@clinic.example"], "password-stdin": ["true"] }, "short")).rejects.toThrow(/at least 12/);
      await expect(run("user:reset-password", { email: ["ghost@clinic.example"] })).rejects.toThrow(/No user with email ghost@clinic.example/);
    });

    it("user:set-roles replaces roles, and never takes the role from the last administrator", async () => {
      const result = await run("user:set-roles", { email: ["clerk@clinic.example"], role: ["billing", "manager"] });
      expect(result.text).toBe("clerk@clinic.example now has billing, manager.");
      expect((await user("clerk@clinic.example")).roles).toEqual(["billing", "manager"]);
      expect((await auditOf("user.set_roles"))[0]).toMatchObject({ actorLabel: "admin-cli", details: { from: ["front_desk"], to: ["billing", "manager"] } });
      await expect(run("user:set-roles", { email: ["root@clinic.example"], role: ["manager"] })).rejects.toThrow(/last active administrator/);
      await expect(run("user:set-roles", { email: ["clerk@clinic.example"] })).rejects.toBeInstanceOf(CommandInputError);
      await expect(run("user:set-roles", { email: ["clerk@clinic.example"], role: ["nurse"] })).rejects.toThrow(/Unknown role "nurse"/);
      await expect(run("user:disable", { email: ["root@clinic.example"] })).rejects.toThrow(/last active administrator/);
      expect((await user("root@clinic.example")).disabledAt).toBeNull();
    });

    it("user:unlock lifts a lockout; user:list shows state and last sign-in", async () => {
      await database.db.update(users).set({ lockedUntil: new Date(Date.now() + 600_000) }).where(eq(users.email, "clerk@clinic.example"));
      const listed = (await run("user:list", {})).json as { email: string; status: string; lastSignInAt: Date | null }[];
      expect(listed.find((u) => u.email === "clerk@clinic.example")).toMatchObject({ status: "locked" });
      expect(listed.find((u) => u.email === "clerk@clinic.example")!.lastSignInAt).toBeInstanceOf(Date);
      expect(listed.find((u) => u.email === "root@clinic.example")!.lastSignInAt).toBeNull();
      const result = await run("user:unlock", { email: ["clerk@clinic.example"] });
      expect(result.text).toBe("Unlocked clerk@clinic.example.");
      expect((await user("clerk@clinic.example")).lockedUntil).toBeNull();
      expect((await auditOf("user.unlock"))[0]).toMatchObject({ actorLabel: "admin-cli", details: { wasLocked: true } });
      expect((await run("user:unlock", { email: ["clerk@clinic.example"] })).text).toMatch(/was not locked/);
    });
  });
}

import { createUser, listUserAccounts, resetUserPassword, setAccountDisabled, setUserRoles, unlockUser } from "@/lib/auth";
import { CLI_ACTOR, dbCommand } from "./db-command";
import { CommandInputError, single, type AdminCommand } from "./types";

/** The CLI acts as itself: the account rules (last administrator) apply; lib/auth writes the audit rows. */
const CLI_CALLER = { actor: CLI_ACTOR };

function rolesOf(flags: Record<string, string[]>): string[] {
  const roles = flags.role?.filter((r) => r !== "true") ?? [];
  if (roles.length === 0) throw new CommandInputError("--role is required (front_desk, billing, manager or admin).");
  return roles;
}

export const userCommands: AdminCommand[] = [
  dbCommand({
    name: "user:create",
    summary: "Create a staff user with one or more roles.",
    usage: "user:create --email E --role R [--role R2] [--name N] --password-stdin",
    async run({ flags, stdin, db, audit }) {
      const email = single(flags, "email")!;
      const roles = rolesOf(flags);
      if (!flags["password-stdin"]) {
        throw new CommandInputError("Pass the password on standard input with --password-stdin (never on the command line).");
      }
      const password = (await stdin()).replace(/\r?\n$/, "");
      const user = await createUser(db, { email, roles, password, name: single(flags, "name", false) });
      await audit({ action: "user.create", target: { type: "user", id: user.id }, outcome: "success", details: { email: user.email, roles: user.roles } });
      return {
        text: `Created ${user.email} (${user.roles.join(", ")}).`,
        json: { id: user.id, email: user.email, name: user.name, roles: user.roles, createdAt: user.createdAt },
      };
    },
  }),
  ...([true, false] as const).map(
    (disable): AdminCommand =>
      dbCommand({
        name: disable ? "user:disable" : "user:enable",
        summary: disable ? "Disable a user and end their sessions at once (never the last active administrator)." : "Enable a disabled user again.",
        usage: `${disable ? "user:disable" : "user:enable"} --email E`,
        async run({ flags, db }) {
          const result = await setAccountDisabled(db, CLI_CALLER, { email: single(flags, "email")! }, disable);
          return { text: `${disable ? "Disabled" : "Enabled"} ${result.email}.`, json: result };
        },
      }),
  ),
  dbCommand({
    name: "user:reset-password",
    summary: "Give a user a temporary password (shown once) that they must change at their next sign-in; their sessions end.",
    usage: "user:reset-password --email E [--password-stdin]",
    async run({ flags, stdin, db }) {
      const email = single(flags, "email")!;
      const password = flags["password-stdin"] ? (await stdin()).replace(/\r?\n$/, "") : undefined;
      const result = await resetUserPassword(db, CLI_CALLER, { email }, { password });
      return {
        text: password
          ? `Set a temporary password for ${result.email}; they must change it at their next sign-in.`
          : `Temporary password for ${result.email} (shown once; they must change it at their next sign-in):\n${result.temporaryPassword}`,
        json: { id: result.id, email: result.email, temporaryPassword: password ? undefined : result.temporaryPassword, mustChangePassword: true },
      };
    },
  }),
  dbCommand({
    name: "user:set-roles",
    summary: "Replace a user's roles (the last active administrator keeps the administrator role).",
    usage: "user:set-roles --email E --role R [--role R2]",
    async run({ flags, db }) {
      const result = await setUserRoles(db, CLI_CALLER, { email: single(flags, "email")! }, rolesOf(flags));
      return { text: `${result.email} now has ${result.roles.join(", ")}.`, json: result };
    },
  }),
  dbCommand({
    name: "user:unlock",
    summary: "Lift a lockout after repeated failed sign-ins, and forget those failures.",
    usage: "user:unlock --email E",
    async run({ flags, db }) {
      const result = await unlockUser(db, CLI_CALLER, { email: single(flags, "email")! });
      return { text: result.wasLocked ? `Unlocked ${result.email}.` : `${result.email} was not locked; its failed sign-ins are forgotten.`, json: result };
    },
  }),
  dbCommand({
    name: "user:list",
    summary: "List users, their roles, status and last sign-in.",
    usage: "user:list",
    async run({ db }) {
      const users = await listUserAccounts(db);
      const status = (u: (typeof users)[number]) => (u.state === "active" && u.mustChangePassword ? "must-change-password" : u.state);
      return {
        text:
          users.map((u) => `${u.email.padEnd(36)} ${status(u).padEnd(21)} ${u.roles.join(", ").padEnd(24)} ${u.lastSignInAt ? `last sign-in ${u.lastSignInAt.toISOString()}` : "never signed in"}`).join("\n") || "No users.",
        json: users.map((u) => ({ id: u.id, email: u.email, name: u.name, roles: u.roles, status: u.state, mustChangePassword: u.mustChangePassword, lastSignInAt: u.lastSignInAt, createdAt: u.createdAt })),
      };
    },
  }),
];

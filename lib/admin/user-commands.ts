import { listUsers, setUserDisabled, createUser } from "@/lib/auth";
import { dbCommand } from "./db-command";
import { CommandInputError, single, type AdminCommand } from "./types";

export const userCommands: AdminCommand[] = [
  dbCommand({
    name: "user:create",
    summary: "Create a staff user with one or more roles.",
    usage: "user:create --email E --role R [--role R2] [--name N] --password-stdin",
    async run({ flags, stdin, db, audit }) {
      const email = single(flags, "email")!;
      const roles = flags.role?.filter((r) => r !== "true") ?? [];
      if (roles.length === 0) throw new CommandInputError("--role is required (front_desk, billing, manager or admin).");
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
        summary: disable ? "Disable a user and end their sessions at once." : "Enable a disabled user again.",
        usage: `${disable ? "user:disable" : "user:enable"} --email E`,
        async run({ flags, db, audit }) {
          const email = single(flags, "email")!;
          const result = await setUserDisabled(db, email, disable);
          await audit({ action: disable ? "user.disable" : "user.enable", target: { type: "user", id: result.id }, outcome: "success", details: { email: result.email } });
          return { text: `${disable ? "Disabled" : "Enabled"} ${result.email}.`, json: result };
        },
      }),
  ),
  dbCommand({
    name: "user:list",
    summary: "List users, their roles and status.",
    usage: "user:list",
    async run({ db }) {
      const users = await listUsers(db);
      const now = new Date();
      const status = (u: (typeof users)[number]) => (u.disabledAt ? "disabled" : u.lockedUntil && u.lockedUntil > now ? "locked" : "active");
      return {
        text: users.map((u) => `${u.email.padEnd(36)} ${status(u).padEnd(9)} ${u.roles.join(", ")}`).join("\n") || "No users.",
        json: users.map((u) => ({ id: u.id, email: u.email, name: u.name, roles: u.roles, status: status(u), createdAt: u.createdAt })),
      };
    },
  }),
];

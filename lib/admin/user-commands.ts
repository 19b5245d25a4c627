import { audit } from "@/lib/audit";
import { listUsers, setUserDisabled, createUser, UserInputError } from "@/lib/auth/users";
import type { Db } from "@/lib/db";
import { CommandInputError, single, type AdminCommand } from "./types";

const cli = { kind: "system", name: "admin-cli" } as const;

function needDb(db: Db | undefined): Db {
  if (!db) throw new Error("This command needs the database.");
  return db;
}

async function userInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UserInputError) throw new CommandInputError(error.message);
    throw error;
  }
}

export const userCommands: AdminCommand[] = [
  {
    name: "user:create",
    summary: "Create a staff user with one or more roles.",
    usage: "user:create --email E --role R [--role R2] [--name N] --password-stdin",
    needsDb: true,
    async run({ flags, stdin, db }) {
      const email = single(flags, "email")!;
      const roles = flags.role?.filter((r) => r !== "true") ?? [];
      if (roles.length === 0) throw new CommandInputError("--role is required (front_desk, billing, manager or admin).");
      if (!flags["password-stdin"]) {
        throw new CommandInputError("Pass the password on standard input with --password-stdin (never on the command line).");
      }
      const password = (await stdin()).replace(/\r?\n$/, "");
      const user = await userInput(() => createUser(needDb(db), { email, roles, password, name: single(flags, "name", false) }));
      await audit(needDb(db), { actor: cli, action: "user.create", target: { type: "user", id: user.id }, outcome: "success", details: { email: user.email, roles: user.roles } });
      return {
        text: `Created ${user.email} (${user.roles.join(", ")}).`,
        json: { id: user.id, email: user.email, name: user.name, roles: user.roles, createdAt: user.createdAt },
      };
    },
  },
  ...([true, false] as const).map(
    (disable): AdminCommand => ({
      name: disable ? "user:disable" : "user:enable",
      summary: disable ? "Disable a user and end their sessions at once." : "Enable a disabled user again.",
      usage: `${disable ? "user:disable" : "user:enable"} --email E`,
      needsDb: true,
      async run({ flags, db }) {
        const email = single(flags, "email")!;
        const result = await userInput(() => setUserDisabled(needDb(db), email, disable));
        await audit(needDb(db), { actor: cli, action: disable ? "user.disable" : "user.enable", target: { type: "user", id: result.id }, outcome: "success", details: { email: result.email } });
        return { text: `${disable ? "Disabled" : "Enabled"} ${result.email}.`, json: result };
      },
    }),
  ),
  {
    name: "user:list",
    summary: "List users, their roles and status.",
    usage: "user:list",
    needsDb: true,
    async run({ db }) {
      const users = await listUsers(needDb(db));
      const now = new Date();
      const status = (u: (typeof users)[number]) => (u.disabledAt ? "disabled" : u.lockedUntil && u.lockedUntil > now ? "locked" : "active");
      return {
        text: users.map((u) => `${u.email.padEnd(36)} ${status(u).padEnd(9)} ${u.roles.join(", ")}`).join("\n") || "No users.",
        json: users.map((u) => ({ id: u.id, email: u.email, name: u.name, roles: u.roles, status: status(u), createdAt: u.createdAt })),
      };
    },
  },
];

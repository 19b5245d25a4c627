import { count, eq } from "drizzle-orm";
import { audit } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { appMeta, users } from "@/lib/db";
import { hashPassword } from "./password";
import type { Role } from "./roles";

export const DEMO_USERS: { email: string; name: string; roles: Role[] }[] = [
  { email: "frontdesk@clinic.example", name: "Noura Al-Harbi", roles: ["front_desk"] },
  { email: "billing@clinic.example", name: "Khalid Al-Otaibi", roles: ["billing"] },
  { email: "manager@clinic.example", name: "Dr. Sara Al-Qahtani", roles: ["manager"] },
  { email: "admin@clinic.example", name: "Faisal Al-Zahrani", roles: ["admin"] },
  { email: "prescriber@clinic.example", name: "Dr. Huda Al-Shehri", roles: ["prescriber"] },
];

const MARKER = "demo_users_seeded";

/**
 * Seeds the demo sign-ins (one per role) into a new, empty database. It runs only when the portal uses the
 * bundled sandbox (the caller checks) and only once: deleting or disabling a demo user later does
 * not bring it back. Returns whether it seeded.
 */
export async function seedDemoUsers(db: Db, password: string): Promise<boolean> {
  const [marker] = await db.select().from(appMeta).where(eq(appMeta.key, MARKER));
  if (marker) return false;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users);
  if (n > 0) return false;
  const hash = await hashPassword(password);
  // The marker first: two instances starting together on one database seed once (the second
  // waits for the first's commit, then inserts nothing and leaves the users alone).
  const seeded = await db.transaction(async (tx) => {
    const marked = await tx.insert(appMeta).values({ key: MARKER, value: { at: new Date().toISOString() } }).onConflictDoNothing().returning({ key: appMeta.key });
    if (marked.length === 0) return false;
    await tx.insert(users).values(DEMO_USERS.map((u) => ({ ...u, passwordHash: hash })));
    return true;
  });
  if (!seeded) return false;
  await audit(db, { actor: { kind: "system", name: "startup" }, action: "user.seed_demo", outcome: "success", details: { users: DEMO_USERS.length } });
  return true;
}

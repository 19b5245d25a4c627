import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { testDatabases } from "@/lib/testing/databases";
import { DEMO_USERS, seedDemoUsers } from "./demo-users";

describe.each(testDatabases())("demo users on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());

  it("are seeded once when two instances start together on one database", async () => {
    const second = database.kind === "postgres" && database.url ? await openDatabase({ kind: "postgres", url: database.url, poolSize: 2 }) : undefined;
    try {
      const results = await Promise.all([seedDemoUsers(database.db, "demo-pass-2026"), seedDemoUsers((second ?? database).db, "demo-pass-2026")]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const [row] = await database.query<{ n: number }>("select count(*)::int as n from users");
      expect(Number(row!.n)).toBe(DEMO_USERS.length);
      expect(await seedDemoUsers(database.db, "demo-pass-2026")).toBe(false);
    } finally {
      await second?.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeRate } from "@/lib/api-access/rate-limit";
import { jwtReplays } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { pruneExpired } from "./maintenance";

describe.each(testDatabases())("maintenance on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());

  it("prunes old rate windows and expired JWT ids, keeps current ones", async () => {
    const now = new Date("2026-11-21T12:00:00Z");
    await consumeRate(database.db, "old", { limit: 5, windowMs: 60_000 }, new Date("2026-11-21T10:00:00Z"));
    await consumeRate(database.db, "new", { limit: 5, windowMs: 60_000 }, now);
    await database.db.insert(jwtReplays).values([
      { issuer: "his", jti: "a", expiresAt: new Date("2026-11-21T11:59:00Z") },
      { issuer: "his", jti: "b", expiresAt: new Date("2026-11-21T12:04:00Z") },
    ]);
    await pruneExpired(database.db, now);
    expect(await database.query("select bucket from api_rate_counters")).toEqual([{ bucket: "new" }]);
    expect(await database.query("select jti from jwt_replays")).toEqual([{ jti: "b" }]);
  });
});

import { getDatabase } from "@/lib/db";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for `npm start` and load balancers. No data is returned. */
export const GET = guarded("json", "health", async (_request: Request): Promise<Response> => {
  try {
    const database = await getDatabase();
    await database.query("select 1");
    return Response.json({ status: "ok", database: database.kind }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json({ status: "unavailable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
});

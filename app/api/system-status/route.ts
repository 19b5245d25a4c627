import { authorize } from "@/lib/auth";
import { getDatabase } from "@/lib/db";
import { guarded } from "@/lib/http";
import { systemStatus } from "@/lib/operations";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The figures of Settings → System status, for its live refresh (administrators only). */
export const GET = guarded("json", "system-status", async (): Promise<Response> => {
  await authorize(["admin"]);
  return Response.json(await systemStatus(await getDatabase()), { headers: { "cache-control": "no-store" } });
});

import { AccessError, authorize } from "@/lib/auth";
import { getDatabase } from "@/lib/db";
import { systemStatus } from "@/lib/operations";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The figures of Settings → System status, for its live refresh (administrators only). */
export async function GET(): Promise<Response> {
  try {
    await authorize(["admin"]);
  } catch (error) {
    if (error instanceof AccessError) return Response.json({ error: error.message }, { status: error.status, headers: { "cache-control": "no-store" } });
    throw error;
  }
  return Response.json(await systemStatus(await getDatabase()), { headers: { "cache-control": "no-store" } });
}

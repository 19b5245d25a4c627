import { currentUser } from "@/lib/auth";
import { waitingWork } from "@/lib/claims";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The menu's counts of work that waits for the signed-in user's roles (docs/decisions/106): read
 * again by the menu when a live event arrives. Counts only: no patient, claim or request in it.
 */
export const GET = guarded("json", "waiting-work", async (): Promise<Response> => {
  const user = await currentUser();
  const headers = { "content-type": "application/json", "cache-control": "no-store" };
  if (!user) return new Response(JSON.stringify({ error: "unauthenticated" }), { status: 401, headers });
  return new Response(JSON.stringify(await waitingWork(await getDb(), user.roles, env().CLINIC_TIME_ZONE)), { status: 200, headers });
});

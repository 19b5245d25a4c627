import { currentUser } from "@/lib/auth";
import { getDatabase } from "@/lib/db";
import { liveEventStream, liveHub } from "@/lib/pipeline";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Server-Sent Events: submission status changes the signed-in user's roles may see. */
export const GET = guarded("json", "events", async (request: Request): Promise<Response> => {
  const user = await currentUser();
  if (!user) {
    return new Response(JSON.stringify({ error: "unauthenticated" }), {
      status: 401,
      headers: { "content-type": "application/json", "cache-control": "no-store" },
    });
  }
  const database = await getDatabase();
  return liveEventStream({
    hub: liveHub(database),
    roles: user.roles,
    lastEventId: request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId"),
    signal: request.signal,
  });
});

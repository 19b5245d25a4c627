import { gateway } from "@/lib/gateway";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The agent gateway: authentication, routing, limits and errors live in lib/gateway. */
export const POST = guarded("json", "gateway", async (request: Request): Promise<Response> => {
  return gateway().query(request);
});

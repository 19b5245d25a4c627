import { jsonResponse } from "@/lib/errors";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** /mcp itself: the server is per agent (lib/mcp); say where to connect, in this API's JSON error shape. */
const handler = guarded("json", "mcp", async (): Promise<Response> =>
  jsonResponse({ error: "not_found", message: "Connect your MCP client to /mcp/<agent>: claim, record, authorization, notification, or a brand name from GATEWAY_AGENTS." }, 404),
);

export const POST = handler;
export const GET = handler;
export const DELETE = handler;

import { mcp } from "@/lib/mcp";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Params = { params: Promise<{ agent: string }> };

/** The agent gateway's MCP server (Streamable HTTP): tokens, tools, limits and errors live in lib/mcp. */
const handler = guarded("json", "mcp", async (request: Request, { params }: Params): Promise<Response> => mcp().handle(request, (await params).agent));

export const POST = handler;
export const GET = handler;
export const DELETE = handler;

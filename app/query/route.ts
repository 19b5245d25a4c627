import { gateway } from "@/lib/gateway";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The agent gateway: authentication, routing, limits and errors live in lib/gateway. */
export async function POST(request: Request): Promise<Response> {
  return gateway().query(request);
}

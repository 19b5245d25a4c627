import { readiness } from "@/lib/operations";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Readiness for load balancers: 200 when this instance can take work, 503 with the reason otherwise. */
export async function GET(): Promise<Response> {
  const result = await readiness();
  return Response.json(result, { status: result.ready ? 200 : 503, headers: { "cache-control": "no-store" } });
}

import { authorizeMetricsScrape } from "@/lib/api-access";
import { getDb } from "@/lib/db";
import { metrics } from "@/lib/metrics";
import { refreshGauges } from "@/lib/operations";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Prometheus text format; bearer token from `npm run admin -- metrics-token:create`. A refusal is audited (lib/api-access). */
export async function GET(request: Request): Promise<Response> {
  const db = await getDb();
  if (!(await authorizeMetricsScrape(db, request.headers))) {
    return Response.json(
      { error: "unauthorized", message: "Send Authorization: Bearer <token>; create the token with npm run admin -- metrics-token:create." },
      { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"', "cache-control": "no-store" } },
    );
  }
  await refreshGauges(db);
  const registry = metrics().registry;
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}

import { claimsApiRatePerMinute, handleListClaims, portalEnvironment } from "@/lib/claims-api";
import { getDb } from "@/lib/db";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The generic claims API: authentication, limits, paging and errors live in lib/claims-api. */
export const GET = guarded("json", "claims-api", async (request: Request): Promise<Response> => {
  return handleListClaims(request, { db: await getDb(), environment: portalEnvironment(), ratePerMinute: claimsApiRatePerMinute() });
});

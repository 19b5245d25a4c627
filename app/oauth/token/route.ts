import { handleTokenRequest } from "@/lib/api";
import { claimsApiRatePerMinute, portalEnvironment } from "@/lib/claims-api";
import { getDb } from "@/lib/db";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** OAuth 2.0 client credentials for the generic claims API (lib/api-access/oauth.ts). */
export const POST = guarded("oauth", "oauth", async (request: Request): Promise<Response> => {
  return handleTokenRequest(request, { db: await getDb(), environment: portalEnvironment(), ratePerMinute: claimsApiRatePerMinute() });
});

import { exchangeApi } from "@/lib/exchange-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Claim in, 202 + Location (lib/exchange-api/claims.ts). */
export const POST = guarded("fhir", "exchange-api", async (request: Request): Promise<Response> => {
  return exchangeApi().submitClaim(request);
});

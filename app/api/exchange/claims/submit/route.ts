import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Claim in, 202 + Location (lib/provider-api/claims.ts). */
export const POST = guarded("fhir", "exchange-api", async (request: Request): Promise<Response> => {
  return providerApi().submitClaim(request);
});

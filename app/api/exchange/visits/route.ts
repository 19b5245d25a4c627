import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A visit list in, its bad items and run out (lib/provider-api/visits.ts, decision 044). */
export const POST = guarded("fhir", "exchange-api", async (request: Request): Promise<Response> => {
  return providerApi().importVisits(request);
});

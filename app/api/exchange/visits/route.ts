import { exchangeApi } from "@/lib/exchange-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A visit list in, its bad items and run out (lib/exchange-api/visits.ts, decision 044). */
export const POST = guarded("fhir", "exchange-api", async (request: Request): Promise<Response> => {
  return exchangeApi().importVisits(request);
});

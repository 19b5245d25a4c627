import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A visit list's runs and verdicts (lib/provider-api/visits.ts). */
export const GET = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return providerApi().visitsStatus(request, (await params).id);
});

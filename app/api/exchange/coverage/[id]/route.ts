import { exchangeApi } from "@/lib/exchange-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The coverage, verified with the platform (lib/exchange-api/coverage.ts). */
export const GET = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return exchangeApi().coverage(request, (await params).id);
});

import { exchangeApi } from "@/lib/exchange-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Ask the platform where the submission stands now (lib/exchange-api/claims.ts). */
export const POST = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return exchangeApi().statusCheck(request, (await params).id);
});

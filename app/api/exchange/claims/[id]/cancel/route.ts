import { exchangeApi } from "@/lib/exchange-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Cancel or nullify the submission on the platform (lib/exchange-api/claims.ts). */
export const POST = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return exchangeApi().cancelClaim(request, (await params).id);
});

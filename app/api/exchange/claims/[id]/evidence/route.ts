import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Information sent to the payer unasked about a claim or authorization (lib/provider-api/changes.ts, decision 115). */
export const POST = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return providerApi().sendEvidence(request, (await params).id);
});

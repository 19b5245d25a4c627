import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Send the payer information about a prescription, unasked (lib/provider-api/prescriptions.ts, docs/decisions/121). */
export const POST = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return providerApi().prescriptionEvidence(request, (await params).id);
});

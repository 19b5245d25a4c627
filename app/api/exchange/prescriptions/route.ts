import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A prescription sent for verification (lib/provider-api/prescriptions.ts, docs/decisions/116). */
export const POST = guarded("fhir", "exchange-api", async (request: Request): Promise<Response> => {
  return providerApi().submitPrescription(request);
});

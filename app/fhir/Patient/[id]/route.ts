import { gateway } from "@/lib/gateway";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A Patient of the portal's registry, for gateway token holders (lib/gateway/fhir.ts). */
export const GET = guarded("fhir", "gateway", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return gateway().fhirPatient(request, (await params).id);
});

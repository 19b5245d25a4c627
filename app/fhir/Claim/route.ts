import { gateway } from "@/lib/gateway";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A Claim submitted through the pipeline, FHIR in and FHIR out (lib/gateway/fhir.ts). */
export const POST = guarded("fhir", "gateway", async (request: Request): Promise<Response> => {
  return gateway().fhirClaim(request);
});

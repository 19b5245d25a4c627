import { gateway } from "@/lib/gateway";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A Claim submitted through the pipeline, FHIR in and FHIR out (lib/gateway/fhir.ts). */
export async function POST(request: Request): Promise<Response> {
  return gateway().fhirClaim(request);
}

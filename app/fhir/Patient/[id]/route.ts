import { gateway } from "@/lib/gateway";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A Patient of the portal's registry, for gateway token holders (lib/gateway/fhir.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return gateway().fhirPatient(request, (await params).id);
}

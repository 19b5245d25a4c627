import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The coverage, verified with the platform (lib/provider-api/coverage.ts). */
export const GET = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return providerApi().coverage(request, (await params).id);
});

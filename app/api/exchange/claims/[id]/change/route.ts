import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A new version of a decided prior authorization (lib/provider-api/changes.ts, decision 114). */
export const POST = guarded("fhir", "exchange-api", async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  return providerApi().changeAuthorization(request, (await params).id);
});

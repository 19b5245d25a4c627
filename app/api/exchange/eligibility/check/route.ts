import { providerApi } from "@/lib/provider-api";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** CoverageEligibilityRequest in, CoverageEligibilityResponse out (lib/provider-api/eligibility.ts). */
export const POST = guarded("fhir", "exchange-api", async (request: Request): Promise<Response> => {
  return providerApi().eligibilityCheck(request);
});

import { exchangeApi } from "@/lib/exchange-api";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** CoverageEligibilityRequest in, CoverageEligibilityResponse out (lib/exchange-api/eligibility.ts). */
export function POST(request: Request): Promise<Response> {
  return exchangeApi().eligibilityCheck(request);
}

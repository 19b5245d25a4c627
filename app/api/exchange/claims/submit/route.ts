import { exchangeApi } from "@/lib/exchange-api";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Claim in, 202 + Location (lib/exchange-api/claims.ts). */
export function POST(request: Request): Promise<Response> {
  return exchangeApi().submitClaim(request);
}

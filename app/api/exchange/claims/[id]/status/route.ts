import { exchangeApi } from "@/lib/exchange-api";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The submission's status as Parameters (lib/exchange-api/claims.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return exchangeApi().claimStatus(request, (await params).id);
}

import { exchangeApi } from "@/lib/exchange-api";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The coverage, verified with the platform (lib/exchange-api/coverage.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return exchangeApi().coverage(request, (await params).id);
}

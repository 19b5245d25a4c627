import { exchangeApi } from "@/lib/exchange-api";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The OpenAPI 3.1 description of /api/exchange (lib/exchange-api/openapi.ts). */
export function GET(request: Request): Promise<Response> {
  return exchangeApi().openApi(request);
}

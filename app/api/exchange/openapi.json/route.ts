import { providerApi } from "@/lib/provider-api";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The OpenAPI 3.1 description of /api/exchange (lib/provider-api/openapi.ts). */
export function GET(request: Request): Promise<Response> {
  return providerApi().openApi(request);
}

import { gateway } from "@/lib/gateway";
import { guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The agent gateway's OpenAPI 3.1 document, generated from its zod schemas (lib/gateway/openapi.ts). */
export const GET = guarded("json", "gateway", async (request: Request): Promise<Response> => gateway().openApi(request));

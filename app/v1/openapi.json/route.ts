import { openApiDocument } from "@/lib/claims-api";

export const dynamic = "force-static";

/** The OpenAPI 3.1 document of the generic claims API (public: it holds no data). */
export function GET(): Response {
  return Response.json(openApiDocument());
}

import { unknownPathRoutes } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Any other path here: a 404 in this API's own error shape (lib/http/errors.ts). */
export const { GET, POST, PUT, PATCH, DELETE } = unknownPathRoutes("json");

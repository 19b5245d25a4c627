import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { guarded } from "@/lib/http/errors";

// Auth.js answers its own errors; anything it lets out becomes a JSON 500 with a request id.
export const GET = guarded("json", "auth", (request: Request) => handlers.GET(request as NextRequest));
export const POST = guarded("json", "auth", (request: Request) => handlers.POST(request as NextRequest));

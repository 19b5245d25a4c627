import { authRoutes } from "@/lib/auth";
import { guarded } from "@/lib/http";

// Auth.js answers its own errors; anything it lets out becomes a JSON 500 with a request id.
export const GET = guarded("json", "auth", authRoutes.GET);
export const POST = guarded("json", "auth", authRoutes.POST);

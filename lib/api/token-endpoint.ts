import { issueToken, type TokenEndpointDeps } from "@/lib/api-access";
import { anonymous, runApi } from "./kernel";

/**
 * The OAuth token endpoint (POST /oauth/token): lib/api-access issues the token, this kernel runs
 * the call (audit, errors in the oauth style). It lives here, not in lib/api-access, so the two
 * modules import each other in one direction only: lib/api → lib/api-access (docs/decisions/064).
 */
export async function handleTokenRequest(request: Request, deps: TokenEndpointDeps): Promise<Response> {
  return runApi({ name: "oauth-client", style: "oauth", db: async () => deps.db, now: deps.now, authenticate: anonymous("oauth-client") }, "oauth.token", request, (call) =>
    issueToken(call, request, deps),
  );
}

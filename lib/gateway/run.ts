import { authenticateGatewayToken } from "@/lib/api-access";
import type { GatewayTokenSummary } from "@/lib/api-access";
import { runApi, type ApiCall, type AuthStrategy } from "@/lib/api";
import { AppError, type ErrorStyle } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { getPlatformPort, type PortSource } from "@/lib/platform";
import { GatewayConfigError, type GatewayConfig } from "./config";

/** What the gateway needs; route files pass the process-wide ones, tests their own. */
export interface GatewayDeps {
  db: () => Promise<Db>;
  /** A function so that a bad GATEWAY_AGENTS is answered 503 `unavailable` with its message, not a crash. */
  config: () => GatewayConfig;
  now?: () => Date;
  /** Default: the portal log (lib/log); lines carry ids and codes only. */
  warn?: (line: string) => void;
  /** Cancel and status check (docs/decisions/046): the port, or the facility ports. Default: the portal's (getPlatformPort). */
  port?: PortSource;
}

/** One authenticated call: the kernel's call plus the gateway configuration and the token. */
export interface GatewayContext extends ApiCall<GatewayTokenSummary> {
  config: GatewayConfig;
  token: GatewayTokenSummary;
  port: PortSource;
}

export type { ErrorStyle };

const UNAUTHENTICATED_MESSAGE: Record<string, string> = {
  missing: "Send the gateway token as Authorization: Bearer <token>.",
  malformed: "The Authorization header must read Bearer <token>.",
  unknown: "The token is not valid or has been revoked.",
  revoked: "The token is not valid or has been revoked.",
};

/** The gateway's strategy: a gateway bearer token, rate-limited per token. */
export function gatewayTokenStrategy(config: () => GatewayConfig): AuthStrategy<GatewayTokenSummary> {
  return async (request, db, now) => {
    const auth = await authenticateGatewayToken(db, request.headers.get("authorization"), now);
    if (auth.ok) {
      const token = auth.token;
      return { ok: true, value: { principal: token, actor: { kind: "api", id: token.id, name: token.name }, rate: { bucket: `gateway:token:${token.id}`, limit: config().ratePerMinute } } };
    }
    return {
      ok: false,
      error: new AppError("unauthenticated", UNAUTHENTICATED_MESSAGE[auth.reason]!, {
        reason: `token_${auth.reason}`,
        headers: { "WWW-Authenticate": auth.reason === "missing" ? 'Bearer realm="gateway"' : 'Bearer realm="gateway", error="invalid_token"' },
      }),
      actor: auth.token ? { kind: "api", id: auth.token.id, name: auth.token.name } : undefined,
    };
  };
}

/**
 * Runs one gateway call on the kernel (lib/api): configuration (503), gateway token (401), the
 * token's rate bucket (429), the work, errors in the route's style, one audit entry with the
 * token's name.
 */
export async function runGateway(
  initialAction: string,
  style: ErrorStyle,
  request: Request,
  deps: GatewayDeps,
  work: (ctx: GatewayContext) => Promise<Response>,
): Promise<Response> {
  let config: GatewayConfig | undefined;
  const precheck = () => {
    try {
      config = deps.config();
    } catch (error) {
      if (!(error instanceof GatewayConfigError)) throw error;
      (deps.warn ?? (() => undefined))(`[gateway] configuration error: ${error.name}`);
      throw new AppError("unavailable", `The gateway is not configured correctly: ${error.message}`, { reason: "gateway_misconfigured" });
    }
  };
  return runApi(
    // The per-caller concurrency guard (docs/decisions/093): claims and the task endpoint (which submits them and visit lists).
    { name: "gateway", style, db: deps.db, now: deps.now, warn: deps.warn, precheck, authenticate: gatewayTokenStrategy(() => config!), guarded: (action) => action === "gateway.query" || action === "gateway.fhir.claim.create" },
    initialAction,
    request,
    (call) => work(Object.assign(call, { config: config!, token: call.principal, port: deps.port ?? getPlatformPort })),
  );
}

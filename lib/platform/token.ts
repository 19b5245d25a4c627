import { randomUUID } from "node:crypto";
import { request } from "undici";
import { z } from "zod";
import type { PlatformConfig } from "./config";
import { PlatformError, PlatformProtocolError, PlatformUnavailableError } from "./errors";
import { transportError } from "./http";
import type { PlatformLogger } from "./logger";
import type { PlatformTransport } from "./transport";

const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().int().positive(),
  scope: z.string().optional(),
});

const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

export interface AccessToken {
  value: string;
  /** When the token stops being used (60 s before the platform's expiry). */
  refreshAt: Date;
  expiresAt: Date;
  scope?: string;
}

/** Refresh this long before expiry so a token never expires in flight. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

/**
 * OAuth 2.0 client credentials over the mTLS transport (the token is bound to the certificate).
 * Cached until 60 s before expiry; concurrent callers share ONE request in flight (single-flight).
 */
export class TokenSource {
  private cached?: AccessToken;
  private inflight?: Promise<AccessToken>;
  /** Token requests sent (for tests and the benchmark). */
  requests = 0;

  constructor(
    private readonly config: PlatformConfig,
    private readonly transport: PlatformTransport,
    private readonly clock: () => Date,
    private readonly logger: PlatformLogger,
  ) {}

  async get(signal?: AbortSignal): Promise<AccessToken> {
    const cached = this.cached;
    if (cached && this.clock().getTime() < cached.refreshAt.getTime()) return cached;
    // Never pass one caller's signal to the shared request: one abort must not fail the others.
    this.inflight ??= this.fetch().finally(() => {
      this.inflight = undefined;
    });
    if (!signal) return this.inflight;
    return Promise.race([
      this.inflight,
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ]);
  }

  /** Drops the token (the platform refused it); the next get() fetches a new one. */
  invalidate(value?: string): void {
    if (value === undefined || this.cached?.value === value) this.cached = undefined;
  }

  private async fetch(): Promise<AccessToken> {
    const requestId = randomUUID();
    const started = performance.now();
    this.requests++;
    let status = 0;
    try {
      let res;
      try {
        res = await request(this.config.tokenUrl, {
          method: "POST",
          dispatcher: this.transport.dispatcher(),
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", "x-request-id": requestId },
          body: new URLSearchParams({
            grant_type: "client_credentials",
            client_id: this.config.clientId,
            client_secret: this.config.clientSecret,
          }).toString(),
        });
      } catch (error) {
        throw transportError(error, requestId, "Token request failed");
      }
      status = res.statusCode;
      const text = await res.body.text().catch((error: unknown) => {
        throw transportError(error, requestId, "Token response failed");
      });
      if (status >= 500) {
        throw new PlatformUnavailableError({ reason: "server", status, requestId, message: `Token endpoint answered HTTP ${status}` });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (status !== 200) {
        const oauth = OAuthErrorSchema.safeParse(json);
        throw new PlatformError({
          status,
          requestId,
          diagnostics: oauth.success ? `${oauth.data.error}${oauth.data.error_description ? `: ${oauth.data.error_description}` : ""}` : undefined,
          message: `The platform refused the client credentials (HTTP ${status}${oauth.success ? `, ${oauth.data.error}` : ""}). Check PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET and the client certificate.`,
        });
      }
      const parsed = TokenResponseSchema.safeParse(json);
      if (!parsed.success) {
        throw new PlatformProtocolError({
          status,
          requestId,
          message: "The token endpoint answered 200 with an unexpected body",
          problems: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
        });
      }
      const now = this.clock().getTime();
      const lifetimeMs = parsed.data.expires_in * 1000;
      // Short-lived tokens (≤ 2 min) are used for half their life instead of "until 60 s before".
      const useFor = lifetimeMs > 2 * TOKEN_REFRESH_MARGIN_MS ? lifetimeMs - TOKEN_REFRESH_MARGIN_MS : lifetimeMs / 2;
      const token: AccessToken = {
        value: parsed.data.access_token,
        refreshAt: new Date(now + useFor),
        expiresAt: new Date(now + lifetimeMs),
        ...(parsed.data.scope ? { scope: parsed.data.scope } : {}),
      };
      this.cached = token;
      return token;
    } finally {
      this.logger.info(`POST /oauth/token ${status || "-"} ${requestId} ${(performance.now() - started).toFixed(1)}ms`);
    }
  }
}

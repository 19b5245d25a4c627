import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { PROXY_BODY_LIMIT_BYTES } from "./lib/http/limits";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

const nextConfig: NextConfig = {
  // Native or WASM packages that must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "argon2", "pg", "undici", "pino", "prom-client"],
  poweredByHeader: false,
  // No type-check inside `next build` (Next 16 runs one after compiling: 2.2 min of a fresh clone's
  // first `npm start` on 2 cores, docs/decisions/099). The types are checked where the code is tested:
  // `npm test` (scripts/test.sh) runs `tsc --noEmit` and ESLint and fails on any error.
  typescript: { ignoreBuildErrors: true },
  turbopack: {
    // next-intl formats messages with intl-messageformat, whose ICU parser (number and date
    // skeletons, a date-time pattern generator) was 10 kB of every page's first-load JavaScript.
    // lib/i18n/message-format.ts is the part of ICU the catalogues use, tested against
    // intl-messageformat over every message of both (docs/decisions/108); on the server as well,
    // so a page's words come out the same on both sides.
    resolveAlias: { "intl-messageformat": "./lib/i18n/message-format.ts" },
  },
  experimental: {
    // Turbopack keeps a cache of the build on disk (about 200 MB) so that the next build after a
    // change compiles less. Writing and compacting it took 30–90 s of a busy machine's first start,
    // for a cache only a later build reads: `npm start` builds a fresh clone without it
    // (CX_BUILD_CACHE=0, scripts/start.ts; docs/decisions/109) and rebuilds with it.
    turbopackFileSystemCacheForBuild: process.env.CX_BUILD_CACHE !== "0",
    // forbidden() renders app/forbidden.tsx with a real 403 status.
    authInterrupts: true,
    // proxy.ts buffers request bodies for the routes it runs on and silently cuts them at this
    // size. It stays above every route's own limit (attachments 10 MB, exchange API and gateway
    // 12 MiB; lib/http/limits.ts), so a cut body is always already over the route's limit and
    // answered 413 there — never stored or parsed truncated.
    proxyClientMaxBodySize: PROXY_BODY_LIMIT_BYTES,
  },
  // The Content-Security-Policy carries a per-request nonce and is set in proxy.ts.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);

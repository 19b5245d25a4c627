/**
 * Preloaded into the portal's process (`node --require`, after peer-address.cjs): answers a
 * request for a built script or style sheet (`/_next/static/….js|.css`) from a browser that accepts
 * Brotli with the file's Brotli copy (`<file>.br`, written by `npm start` after the build:
 * scripts/lib/precompress.ts). `next start` only gzips, and Brotli's copy of the same JavaScript
 * is 13 % smaller: every page's first load carries fewer bytes (docs/decisions/108). Anything else
 * — no copy, another path, another method, a browser without Brotli — goes to Next.js unchanged.
 *
 * The answer carries what Next.js sends with these files (immutable for a year: their names change
 * with their content) and the security headers of next.config.ts.
 */
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (node --require) */
const fs = require("node:fs");
const http = require("node:http");
const https = require("node:https");
const path = require("node:path");

const STATIC_DIR = path.join(process.cwd(), ".next", "static");
const PREFIX = "/_next/static/";
/** A built file's path: letters, digits and -_.~/ only (no encoded characters, no `..`). */
const SAFE = /^[A-Za-z0-9_\-.~/]+\.(js|css)$/;
const TYPES = { js: "application/javascript; charset=UTF-8", css: "text/css; charset=UTF-8" };
/** The build's files do not change while the portal runs: what exists is looked up once. */
const known = new Map();

function brotliCopy(relative) {
  if (known.has(relative)) return known.get(relative);
  let found = null;
  const file = path.join(STATIC_DIR, relative);
  if (file.startsWith(STATIC_DIR + path.sep)) {
    try {
      const stat = fs.statSync(`${file}.br`);
      // A copy older than its file is from an earlier build: not used.
      if (stat.isFile() && stat.mtimeMs >= fs.statSync(file).mtimeMs) found = { path: `${file}.br`, size: stat.size };
    } catch {
      found = null;
    }
  }
  if (known.size < 5000) known.set(relative, found);
  return found;
}

function acceptsBrotli(header) {
  if (typeof header !== "string") return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    if (coding.trim().toLowerCase() !== "br") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

function serveBrotli(listener) {
  if (typeof listener !== "function") return listener;
  return function brotli(req, res) {
    const url = req.url || "";
    if ((req.method === "GET" || req.method === "HEAD") && url.startsWith(PREFIX) && acceptsBrotli(req.headers["accept-encoding"])) {
      const relative = url.slice(PREFIX.length).split("?")[0];
      const match = SAFE.exec(relative);
      const copy = match && !relative.split("/").includes("..") ? brotliCopy(relative) : null;
      if (copy) {
        res.writeHead(200, {
          "Content-Type": TYPES[match[1]],
          "Content-Encoding": "br",
          "Content-Length": String(copy.size),
          "Cache-Control": "public, max-age=31536000, immutable",
          Vary: "Accept-Encoding",
          "X-Content-Type-Options": "nosniff",
          "Referrer-Policy": "strict-origin-when-cross-origin",
          "X-Frame-Options": "DENY",
          "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
        });
        if (req.method === "HEAD") return res.end();
        const stream = fs.createReadStream(copy.path);
        stream.on("error", () => res.destroy());
        stream.pipe(res);
        return undefined;
      }
    }
    return listener.call(this, req, res);
  };
}

for (const mod of [http, https]) {
  const original = mod.createServer;
  mod.createServer = function createServer(...args) {
    const i = args.findIndex((a) => typeof a === "function");
    if (i >= 0) args[i] = serveBrotli(args[i]);
    return original.apply(this, args);
  };
}

/**
 * Preloaded into the portal's process (`node --require`): stamps every request with the address
 * of the connection's peer and whether it came over TLS, overwriting anything a client sent under
 * those names. `next start` itself keeps a client's X-Forwarded-For and records no peer address,
 * so without this the audit log could only believe what the client said (lib/http/client-address.ts).
 */
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (node --require) */
const http = require("node:http");
const https = require("node:https");

const PEER = "x-clinic-peer-address";
const TLS = "x-clinic-peer-tls";

function stamp(listener) {
  if (typeof listener !== "function") return listener;
  return function stamped(req, res) {
    req.headers[PEER] = req.socket && req.socket.remoteAddress ? String(req.socket.remoteAddress) : "";
    req.headers[TLS] = req.socket && req.socket.encrypted ? "1" : "0";
    return listener.call(this, req, res);
  };
}

for (const mod of [http, https]) {
  const original = mod.createServer;
  mod.createServer = function createServer(...args) {
    const i = args.findIndex((a) => typeof a === "function");
    if (i >= 0) args[i] = stamp(args[i]);
    return original.apply(this, args);
  };
}

import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { ATTACHMENT_BODY_LIMIT_BYTES, EXCHANGE_API_BODY_LIMIT_BYTES, GATEWAY_BODY_LIMIT_BYTES, PROXY_BODY_LIMIT_BYTES } from "../lib/http/limits";
import { adminCli, DEMO, expect, registerOrgClient, signInRequest, test } from "./fixtures";

/**
 * Body limits at the edge: for each route family, a body just under its limit and just
 * over it, sent with Content-Length and chunked (no length), through the real server — proxy.ts
 * included, which buffers bodies. Under → accepted whole (the stored attachment's SHA-256 is the
 * sent one); over → 413 naming the limit; far over the proxy's own buffer → still 413.
 */

const PORT = Number(process.env.E2E_PORT ?? 3210);
const MARGIN = 1024;

interface Answer {
  status: number;
  body: string;
}

/** One request over a raw socket: Content-Length, or chunked in 64 KiB pieces. Stops sending once answered. */
function send(method: string, urlPath: string, headers: Record<string, string>, body: Buffer, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "localhost", port: PORT, method, path: urlPath, headers: chunked ? headers : { ...headers, "content-length": String(body.length) } });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
      res.on("error", reject);
    });
    // The server may answer 413 and close before the whole body is sent.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    (async () => {
      const piece = 64 * 1024;
      for (let at = 0; at < body.length && !answered; at += piece) {
        if (!req.write(body.subarray(at, at + piece))) await new Promise((r) => req.once("drain", r));
      }
      req.end();
    })().catch(() => undefined);
  });
}

/** A PDF of exactly `size` bytes (header, padding in a comment, end marker). */
function pdfOfSize(size: number): Buffer {
  const head = Buffer.from("%PDF-1.4\n%");
  const tail = Buffer.from("\n%%EOF\n");
  const pad = Buffer.alloc(size - head.length - tail.length, 0x41);
  return Buffer.concat([head, pad, tail]);
}

/** A valid FHIR Claim padded with JSON whitespace to exactly `size` bytes. */
function claimOfSize(size: number): Buffer {
  const claim = {
    resourceType: "Claim",
    status: "active",
    use: "claim",
    identifier: [{ system: "https://his.example/claims", value: randomUUID() }],
    type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
    patient: { reference: "Patient/1000000001" },
    created: new Date().toISOString(),
    priority: { coding: [{ code: "normal" }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
    item: [{ sequence: 1, productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] }, unitPrice: { value: 150, currency: "SAR" } }],
  };
  const text = Buffer.from(JSON.stringify(claim));
  return Buffer.concat([text, Buffer.alloc(size - text.length, 0x20)]);
}

interface Row {
  family: string;
  limit: number;
  size: number;
  chunked: boolean;
  status: number;
  note: string;
}

test.describe("body limits: just under is accepted whole, just over is 413 naming the limit", () => {
  test.describe.configure({ timeout: 300_000 });
  const rows: Row[] = [];
  let staffCookie = "";
  let gatewayToken = "";
  let orgJwt: () => Promise<string>;

  test.beforeAll(async () => {
    const ctx = await signInRequest(DEMO.billing);
    staffCookie = (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await ctx.dispose();
    gatewayToken = (adminCli(["gateway-token:create", "--name", `limits ${randomUUID().slice(0, 6)}`]) as { token: string }).token;
    const org = await registerOrgClient("Limits HIS");
    orgJwt = () => org.token();
  });

  test.afterAll(() => {
    const lines = [
      `Body limits (proxy.ts buffer ${PROXY_BODY_LIMIT_BYTES} bytes)`,
      "",
      "| family | limit (bytes) | body (bytes) | sent as | answer | note |",
      "|---|---|---|---|---|---|",
      ...rows.map((r) => `| ${r.family} | ${r.limit} | ${r.size} (${r.size > r.limit ? "+" : "−"}${Math.abs(r.size - r.limit)}) | ${r.chunked ? "chunked" : "Content-Length"} | ${r.status} | ${r.note} |`),
    ];
    fs.mkdirSync("test-results", { recursive: true });
    fs.writeFileSync(path.join("test-results", "body-limits-table.md"), `${lines.join("\n")}\n`);
    console.log(lines.join("\n"));
  });

  for (const chunked of [false, true]) {
    const how = chunked ? "chunked" : "with Content-Length";

    test(`attachments (10 MB per file), ${how}`, async () => {
      const limit = ATTACHMENT_BODY_LIMIT_BYTES;
      const under = pdfOfSize(limit - MARGIN);
      const ok = await send("POST", "/api/attachments", { cookie: staffCookie, origin: `http://localhost:${PORT}`, "x-file-name": "limit.pdf" }, under, chunked);
      expect(ok.status, ok.body).toBe(201);
      const stored = JSON.parse(ok.body) as { size: number; sha256: string };
      // Never truncated: what is stored is byte for byte what was sent.
      expect(stored.size).toBe(under.length);
      expect(stored.sha256).toBe(createHash("sha256").update(under).digest("hex"));
      rows.push({ family: "POST /api/attachments", limit, size: under.length, chunked, status: ok.status, note: "stored whole (size and SHA-256 match)" });
      if (!chunked) {
        // The download keeps its own CSP (the pages' one from proxy.ts must not replace it), and a
        // client's own X-Forwarded-Proto does not make plain HTTP look like TLS (no HSTS).
        // (Not on the download itself: Auth.js reads X-Forwarded-Proto too and would look for the __Secure- cookie.)
        const download = await fetch(`http://localhost:${PORT}/api/attachments/${(stored as unknown as { id: string }).id}`, { headers: { cookie: staffCookie } });
        expect(download.status).toBe(200);
        expect(download.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
        const spoofed = await fetch(`http://localhost:${PORT}/api/health`, { headers: { "x-forwarded-proto": "https" } });
        expect(spoofed.status).toBe(200);
        expect(spoofed.headers.get("strict-transport-security")).toBeNull();
        expect(createHash("sha256").update(Buffer.from(await download.arrayBuffer())).digest("hex")).toBe(stored.sha256);
      }
      for (const size of [limit + MARGIN, ...(chunked ? [PROXY_BODY_LIMIT_BYTES + 4 * MARGIN * MARGIN] : [])]) {
        const over = await send("POST", "/api/attachments", { cookie: staffCookie, origin: `http://localhost:${PORT}`, "x-file-name": "limit.pdf" }, pdfOfSize(size), chunked);
        expect(over.status, over.body).toBe(413);
        expect(JSON.parse(over.body).message).toContain("10 MB");
        rows.push({ family: "POST /api/attachments", limit, size, chunked, status: over.status, note: JSON.parse(over.body).message });
      }
    });

    test(`exchange API (12 MiB), ${how}`, async () => {
      const limit = EXCHANGE_API_BODY_LIMIT_BYTES;
      const headers = async () => ({ authorization: `Bearer ${await orgJwt()}`, "content-type": "application/fhir+json" });
      const ok = await send("POST", "/api/exchange/claims/submit", await headers(), claimOfSize(limit - MARGIN), chunked);
      expect(ok.status, ok.body.slice(0, 300)).toBe(202);
      rows.push({ family: "POST /api/exchange/claims/submit", limit, size: limit - MARGIN, chunked, status: ok.status, note: "queued (ClaimResponse outcome queued)" });
      for (const size of [limit + MARGIN, ...(chunked ? [PROXY_BODY_LIMIT_BYTES + 4 * MARGIN * MARGIN] : [])]) {
        const over = await send("POST", "/api/exchange/claims/submit", await headers(), claimOfSize(size), chunked);
        expect(over.status, over.body.slice(0, 300)).toBe(413);
        const diagnostics = (JSON.parse(over.body) as { issue: { diagnostics: string }[] }).issue[0]!.diagnostics;
        expect(diagnostics).toContain(String(limit));
        rows.push({ family: "POST /api/exchange/claims/submit", limit, size, chunked, status: over.status, note: diagnostics });
      }
    });

    test(`gateway (12 MiB), ${how}`, async () => {
      const limit = GATEWAY_BODY_LIMIT_BYTES;
      const headers = { authorization: `Bearer ${gatewayToken}`, "content-type": "application/fhir+json" };
      const ok = await send("POST", "/fhir/Claim", headers, claimOfSize(limit - MARGIN), chunked);
      expect([200, 201, 202], ok.body.slice(0, 300)).toContain(ok.status);
      rows.push({ family: "POST /fhir/Claim", limit, size: limit - MARGIN, chunked, status: ok.status, note: "accepted" });
      for (const size of [limit + MARGIN, ...(chunked ? [PROXY_BODY_LIMIT_BYTES + 4 * MARGIN * MARGIN] : [])]) {
        const over = await send("POST", "/fhir/Claim", headers, claimOfSize(size), chunked);
        expect(over.status, over.body.slice(0, 300)).toBe(413);
        const diagnostics = (JSON.parse(over.body) as { issue: { diagnostics: string }[] }).issue[0]!.diagnostics;
        expect(diagnostics).toContain(String(limit));
        rows.push({ family: "POST /fhir/Claim", limit, size, chunked, status: over.status, note: diagnostics });
      }
    });
  }
});

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressStatic } from "./precompress";

/*
 * The preload that sends the build's scripts in Brotli (docs/decisions/108), in a process of its
 * own as `npm start` runs it: a plain HTTP server stands for Next.js and answers "next:<path>".
 */
const preload = path.join(__dirname, "static-brotli.cjs");
let dir: string;
let server: ChildProcess;
let base: string;
const script = "export const answer = 42;\n".repeat(200);

async function get(url: string, encoding: string, method = "GET") {
  // node:http, not fetch: fetch decodes the body whatever we ask.
  const http = await import("node:http");
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    // The path as written (a URL string would have its dots resolved before it is sent).
    const { hostname, port } = new URL(base);
    const request = http.request({ hostname, port, path: url, method, headers: { "accept-encoding": encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end();
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cx-brotli-"));
  fs.mkdirSync(path.join(dir, ".next", "static", "chunks"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".next", "static", "chunks", "app.js"), script);
  fs.writeFileSync(path.join(dir, ".next", "static", "chunks", "site.css"), "body { color: black }\n".repeat(50));
  fs.writeFileSync(path.join(dir, ".next", "static", "chunks", "font.woff2"), "not text");
  fs.writeFileSync(path.join(dir, "secret.js"), "outside");
  const first = await precompressStatic(dir);
  expect(first.written).toBe(2);
  expect(first.after).toBeLessThan(first.before);
  expect((await precompressStatic(dir)).written).toBe(0);
  // A file rebuilt after its copy: the copy is old.
  const stale = path.join(dir, ".next", "static", "chunks", "stale.js");
  fs.writeFileSync(stale, script);
  fs.writeFileSync(`${stale}.br`, "old copy");
  const past = new Date(Date.now() - 60_000);
  fs.utimesSync(`${stale}.br`, past, past);
  server = spawn(process.execPath, ["--require", preload, "-e", "require('node:http').createServer((q, r) => r.end('next:' + q.url)).listen(0, '127.0.0.1', function () { console.log(this.address().port); })"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) => server.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => {
  server?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("built scripts in Brotli", () => {
  it("sends a script's Brotli copy to a browser that accepts Brotli, with the headers of a built file", async () => {
    const answer = await get("/_next/static/chunks/app.js", "gzip, deflate, br, zstd");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(script);
    const css = await get("/_next/static/chunks/site.css?v=1", "br");
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
    const head = await get("/_next/static/chunks/app.js", "br", "HEAD");
    expect(head.headers["content-length"]).toBe(String(fs.statSync(path.join(dir, ".next/static/chunks/app.js.br")).size));
  });

  it("leaves everything else to Next.js", async () => {
    for (const [url, encoding] of [
      ["/_next/static/chunks/app.js", "gzip, deflate"],
      ["/_next/static/chunks/app.js", "br;q=0, gzip"],
      ["/_next/static/chunks/font.woff2", "br"],
      ["/_next/static/chunks/missing.js", "br"],
      ["/_next/static/chunks/stale.js", "br"],
      ["/_next/static/../../secret.js", "br"],
      ["/_next/static/chunks/%2e%2e/%2e%2e/%2e%2e/secret.js", "br"],
      ["/patients", "br"],
    ]) {
      const answer = await get(url!, encoding!);
      expect(answer.headers["content-encoding"], url).toBeUndefined();
      expect(answer.body.toString(), url).toBe(`next:${url}`);
    }
  });
});

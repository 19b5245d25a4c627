import http from "node:http";
import { describe, expect, it, vi } from "vitest";
import { metrics } from "@/lib/metrics";
import { routeFamily, routePattern, startHttpObserver } from "./observe";

describe("HTTP observer", () => {
  it("turns paths into patterns without ids and into a fixed set of families", () => {
    expect(routePattern("/patients/1000000001/eligibility?q=Sara")).toBe("/patients/[id]/eligibility");
    expect(routePattern("/api/exchange/claims/3f0c2a1e-aaaa-bbbb-cccc-123456789abc/status")).toBe("/api/exchange/claims/[id]/status");
    expect(routeFamily("/api/exchange/claims/[id]/status")).toBe("exchange-api");
    expect(routeFamily("/v1/claims")).toBe("claims-api");
    expect(routeFamily("/claims")).toBe("pages");
  });

  it("counts every answered request by family and status", async () => {
    startHttpObserver();
    const server = http.createServer((req, res) => {
      res.statusCode = req.url?.startsWith("/v1/") ? 404 : 200;
      res.end("x");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const before = (await metrics().httpRequests.get()).values.find((v) => v.labels.family === "claims-api" && v.labels.status === "404")?.value ?? 0;
    await (await fetch(`http://127.0.0.1:${port}/v1/claims/123`)).text();
    await (await fetch(`http://127.0.0.1:${port}/v1/claims/456`)).text();
    const count = async () => (await metrics().httpRequests.get()).values.find((v) => v.labels.family === "claims-api" && v.labels.status === "404")?.value ?? 0;
    await vi.waitFor(async () => expect((await count()) - before).toBe(2));
    server.close();
    const text = await metrics().registry.metrics();
    // Labels carry families, never paths or ids.
    expect(text).not.toMatch(/\/v1\/claims\/|"123"|"456"/);
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { drainingResponse } from "./draining";
import { requestsFinished, startInFlightCounter } from "./in-flight";
import { shutdownState } from "@/lib/http";

describe("requests in flight at shutdown", () => {
  const server = http.createServer((req, res) => {
    const ms = Number(new URL(req.url ?? "/", "http://x").searchParams.get("ms") ?? 0);
    setTimeout(() => res.end("done"), ms);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("counts every request until it is answered, and waits for them", async () => {
    startInFlightCounter();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const before = shutdownState().inFlight;
    const slow = [fetch(`http://127.0.0.1:${port}/?ms=300`), fetch(`http://127.0.0.1:${port}/?ms=400`)];
    const deadline = Date.now() + 2_000;
    while (shutdownState().inFlight < before + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(shutdownState().inFlight).toBe(before + 2);
    // Too short a grace: not finished.
    expect(await requestsFinished(50)).toBe(false);
    const started = performance.now();
    expect(await requestsFinished(5_000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    for (const answer of await Promise.all(slow)) expect(await answer.text()).toBe("done");
    expect(shutdownState().inFlight).toBe(0);
  });

  it("counts a request the client abandons as finished", async () => {
    const { port } = server.address() as AddressInfo;
    const controller = new AbortController();
    const pending = fetch(`http://127.0.0.1:${port}/?ms=5000`, { signal: controller.signal }).catch(() => undefined);
    while (shutdownState().inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await pending;
    expect(await requestsFinished(1_000)).toBe(true);
  });
});

describe("refused while draining", () => {
  it("answers 503 with Retry-After in each family's shape", async () => {
    const json = drainingResponse("json", "r1");
    expect(json.status).toBe(503);
    expect(json.headers.get("retry-after")).toBe("2");
    expect(((await json.json()) as { error: string }).error).toBe("unavailable");
    const fhir = drainingResponse("fhir", "r2");
    const outcome = (await fhir.json()) as { resourceType: string; issue: { code: string }[] };
    expect(fhir.status).toBe(503);
    expect(outcome.resourceType).toBe("OperationOutcome");
    expect(outcome.issue[0]!.code).toBe("transient");
    const oauth = drainingResponse("oauth", "r3");
    expect(oauth.status).toBe(503);
    expect(((await oauth.json()) as { error: string }).error).toBe("temporarily_unavailable");
    expect(oauth.headers.get("retry-after")).toBe("2");
    const page = drainingResponse(undefined, "r4");
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("retry-after")).toBe("2");
  });
});

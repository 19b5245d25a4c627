import { describe, expect, it } from "vitest";
import { OperationOutcomeSchema } from "../lib/fhir";
import { ManualClock } from "./clock";
import { RateLimiter } from "./rate-limit";
import { claimBody, eligibilityRequest, startTestSandbox } from "./test-support";

describe("RateLimiter (unit)", () => {
  it("allows `limit` requests in any sliding window, then refuses with the seconds until a slot frees", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 50));
    const limiter = new RateLimiter({ eligibility: 3, claims: 5, status: 10 }, 60_000, clock);
    expect(limiter.take("a", "eligibility").allowed).toBe(true); // at :50
    clock.advance(15_000); // 1:05 — a new clock minute does not reset the count
    expect([1, 2].map(() => limiter.take("a", "eligibility").allowed)).toEqual([true, true]);
    const refused = limiter.take("a", "eligibility");
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 45 });
    expect(limiter.take("b", "eligibility").allowed).toBe(true); // other certificate
    expect(limiter.take("a", "claims").allowed).toBe(true); // other group
    clock.advance(44_999);
    expect(limiter.take("a", "eligibility").allowed).toBe(false);
    clock.advance(1); // the request of :50 leaves the window
    expect(limiter.take("a", "eligibility")).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take("a", "eligibility").allowed).toBe(false);
  });
});

describe("rate limits over HTTP (controllable clock)", () => {
  it("the 101st eligibility request within a minute gets 429 + Retry-After; the next window is fine", async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 15, 9, 0, 0));
    const t = await startTestSandbox({ clock });
    try {
      const body = eligibilityRequest("1000000001", "payer-rimal");
      const token = await t.token();
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) statuses.push((await t.call("POST", "/CoverageEligibilityRequest", { body, token })).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      clock.advance(20_000);
      const limited = await t.call("POST", "/CoverageEligibilityRequest", { body, token });
      expect(limited.status).toBe(429);
      expect(limited.headers["retry-after"]).toBe("40");
      expect(OperationOutcomeSchema.parse(limited.body).issue[0]?.code).toBe("throttled");
      // Status and claims groups are counted separately.
      expect((await t.call("GET", "/Claim?patient=1000000001", { token })).status).toBe(200);
      clock.advance(40_000);
      expect((await t.call("POST", "/CoverageEligibilityRequest", { body, token })).status).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it("counts per group with configured limits and window", async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 15, 9, 0, 0));
    const t = await startTestSandbox({ clock, limits: { claims: 2, status: 3 }, rateWindowMs: 10_000 });
    try {
      const token = await t.token();
      const claim = () => claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }] });
      expect((await t.call("POST", "/Claim", { body: claim(), token })).status).toBe(202);
      // Errors count too: the request reached the endpoint.
      expect((await t.call("POST", "/Claim", { rawBody: "{", token, headers: { "content-type": "application/fhir+json" } })).status).toBe(400);
      const third = await t.call("POST", "/Claim", { body: claim(), token });
      expect(third.status).toBe(429);
      expect(third.headers["retry-after"]).toBe("10");
      for (let i = 0; i < 3; i++) expect((await t.call("GET", "/ClaimResponse?request=x", { token })).status).toBe(200);
      expect((await t.call("GET", "/Claim/x", { token })).status).toBe(429);

      clock.advance(10_000);
      expect((await t.call("POST", "/Claim", { body: claim(), token })).status).toBe(202);
    } finally {
      await t.stop();
    }
  });
});

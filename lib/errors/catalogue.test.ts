import { describe, expect, it } from "vitest";
import { statusOf } from "@/lib/fhir";
import { API_ERROR_SYSTEM, AppError, ERROR_CATALOGUE, ERROR_CODES, ERROR_STYLES, codeForStatus, errorOutcome, renderError } from "./catalogue";

describe("the error catalogue", () => {
  it("gives every code a distinct error status, a FHIR issue code and an RFC 6749 code", () => {
    const statuses = ERROR_CODES.map((c) => ERROR_CATALOGUE[c].status);
    expect(new Set(statuses).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(entry.fhir, code).toMatch(/^[a-z-]+$/);
      expect(entry.oauth, code).toMatch(/^[a-z_]+$/);
      expect(codeForStatus(entry.status), code).toBe(code);
    }
  });

  it.each(ERROR_CODES)("renders %s in each style with its status and code", async (code) => {
    const error = new AppError(code, `Something about ${code}.`, { reason: "some_reason", headers: { "X-Test": "1" } });
    for (const style of ERROR_STYLES) {
      const response = renderError(error, style, { "X-Request-ID": "r-1" });
      expect(response.status, style).toBe(ERROR_CATALOGUE[code].status);
      expect(response.headers.get("x-test"), style).toBe("1");
      expect(response.headers.get("x-request-id"), style).toBe("r-1");
      expect(response.headers.get("cache-control"), style).toBe("no-store");
      const body = (await response.json()) as Record<string, unknown>;
      if (style === "json") {
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expect(body).toEqual({ error: code, message: `Something about ${code}.`, reason: "some_reason" });
      } else if (style === "oauth") {
        expect(response.headers.get("pragma")).toBe("no-cache");
        expect(body).toEqual({ error: ERROR_CATALOGUE[code].oauth, error_description: `Something about ${code}.` });
      } else {
        expect(response.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
        expect(body).toMatchObject({
          resourceType: "OperationOutcome",
          issue: [{ severity: "error", code: ERROR_CATALOGUE[code].fhir, details: { coding: [{ system: API_ERROR_SYSTEM, code }], text: "some_reason" } }],
        });
      }
    }
  });

  it("answers an RFC 6749 reason as itself on /oauth/token", async () => {
    const body = (await renderError(new AppError("invalid_request", "No.", { reason: "invalid_scope" }), "oauth").json()) as { error: string };
    expect(body.error).toBe("invalid_scope");
  });

  it("renders field problems as `issues` in JSON and one issue with its expression each in FHIR", () => {
    const error = new AppError("unprocessable", "Bad claim.", { fields: [{ path: "Claim.use", message: "must be claim" }, { path: "Claim.provider", message: "must be this clinic" }] });
    const outcome = errorOutcome(error);
    expect(outcome.issue.map((i) => i.expression)).toEqual([["Claim.use"], ["Claim.provider"]]);
    expect(outcome.issue[0]!.diagnostics).toBe("Claim.use: must be claim");
  });
});

describe("statusOf(outcome)", () => {
  it("reads back the status of every catalogue code's OperationOutcome (a platform error is a 5xx)", () => {
    for (const code of ERROR_CODES) {
      const status = statusOf(errorOutcome(new AppError(code, "x")));
      // platform_error (502) and internal (500) share the FHIR issue code `exception`.
      if (code === "platform_error") expect(status).toBe(500);
      else expect(status, code).toBe(ERROR_CATALOGUE[code].status);
    }
  });

  it("is 200 without an error issue, and follows the first error issue", () => {
    expect(statusOf({ resourceType: "OperationOutcome", issue: [{ severity: "information", code: "informational" }] })).toBe(200);
    expect(
      statusOf({
        resourceType: "OperationOutcome",
        issue: [
          { severity: "warning", code: "throttled" },
          { severity: "error", code: "duplicate" },
          { severity: "error", code: "not-found" },
        ],
      }),
    ).toBe(409);
    expect(statusOf({ resourceType: "OperationOutcome", issue: [{ severity: "fatal", code: "structure" }] })).toBe(400);
    expect(statusOf({ resourceType: "OperationOutcome", issue: [{ severity: "error", code: "required" }] })).toBe(422);
  });
});

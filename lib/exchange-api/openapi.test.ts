import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { coverages, insurers, patients, submissions } from "@/lib/db/schema";
import { startOutboxWorker } from "@/lib/pipeline";
import { buildClaim, startTestSandbox, testClient, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { eligibilityRequest } from "@/lib/platform/testing";
import { testDatabases } from "@/lib/testing/databases";
import { getFhir, newOrgKey, postFhir, registerOrg, signToken, testApi, testConfig, type TestOrgKey } from "./testing";
import type { ExchangeApi } from "./index";
import { EXCHANGE_API_SCHEMAS } from "./openapi";

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, unknown>; requestBody?: unknown };
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { scheme?: string }> } };

const ROOT = path.resolve(__dirname, "../..");

/** The route file serving an OpenAPI path: /api/exchange/coverage/{id} → app/api/exchange/coverage/[id]/route.ts */
function routeFile(apiPath: string): string {
  return path.join(ROOT, "app", ...apiPath.split("/").filter(Boolean).map((s) => s.replace(/^\{(.+)\}$/, "[$1]")), "route.ts");
}

describe("the OpenAPI document (on PGlite and the sandbox)", () => {
  const [target] = testDatabases();
  let database: Awaited<ReturnType<NonNullable<typeof target>["open"]>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let api: ExchangeApi;
  let key: TestOrgKey;
  let doc: Doc;
  let coverageId: string;

  beforeAll(async () => {
    database = await target!.open();
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    api = testApi(database.db, client, testConfig({}, sb.config.providerOrgId));
    key = await newOrgKey("RS256");
    await registerOrg(database.db, "openapi-client", key);
    const patientId = randomUUID();
    coverageId = randomUUID();
    await database.db.insert(insurers).values({ id: "payer-rimal", nameEn: "Rimal", nameAr: "رمال" }).onConflictDoNothing();
    await database.db.insert(patients).values({ id: patientId, nationalId: "1000000001", givenName: "T", familyName: "O", birthDate: "1985-03-14", gender: "female" });
    await database.db.insert(coverages).values({ id: coverageId, patientId, insurerId: "payer-rimal", memberId: "M", coverageRef: "cov-1000000001" });
    const res = await api.openApi(new Request("https://portal.test/api/exchange/openapi.json"));
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  /** A JSON (not FHIR) POST: the visit list. */
  function postJson(path: string, body: unknown, token?: string): Request {
    const request = postFhir(path, body, token);
    const headers = new Headers(request.headers);
    headers.set("content-type", "application/json");
    return new Request(request.url, { method: "POST", headers, body: JSON.stringify(body) });
  }

  /** Runs the outbox until every queued submission is at the platform. */
  async function sendQueued(): Promise<void> {
    const worker = startOutboxWorker({ db: database.db, client, pollMs: 20, leaseMs: 30_000, maxAttempts: 3, backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 }, pollAfterMs: 60_000, log: () => {} });
    try {
      await waitFor(async () => (await database.db.select({ id: submissions.id }).from(submissions).where(eq(submissions.status, "queued"))).length === 0, 30_000, "submissions sent");
    } finally {
      await worker.stop();
    }
  }

  /** Calls the handler behind a documented operation, with or without a valid token. */
  async function call(operationId: string, authenticated: boolean, variant: "good" | "bad" = "good"): Promise<Response> {
    const token = authenticated ? await signToken(key, "openapi-client") : undefined;
    const provider = sb.config.providerOrgId;
    switch (operationId) {
      case "checkEligibility":
        return api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", variant === "good" ? eligibilityRequest("1000000001", "payer-rimal", provider) : { resourceType: "CoverageEligibilityRequest" }, token));
      case "verifyCoverage":
        return api.coverage(getFhir("/api/exchange/coverage/x", token), variant === "good" ? coverageId : randomUUID());
      case "submitClaim": {
        const claim = { ...buildClaim({ use: "claim", items: [{ code: "99213", price: 100 }] }), provider: { reference: `Organization/${provider}` }, identifier: [{ system: "urn:test", value: randomUUID() }] };
        return api.submitClaim(postFhir("/api/exchange/claims/submit", variant === "good" ? claim : { resourceType: "Claim" }, token));
      }
      case "claimStatus": {
        if (variant === "bad") return api.claimStatus(getFhir("/api/exchange/claims/x/status", token), randomUUID());
        const submitted = await call("submitClaim", true);
        const location = submitted.headers.get("location")!;
        const id = location.split("/").at(-2)!;
        return api.claimStatus(getFhir(location, token), id);
      }
      case "cancelClaim":
      case "claimStatusCheck": {
        if (variant === "bad") {
          const id = randomUUID();
          return operationId === "cancelClaim" ? api.cancelClaim(postFhir(`/api/exchange/claims/${id}/cancel`, { resourceType: "Parameters" }, token), id) : api.statusCheck(postFhir(`/api/exchange/claims/${id}/status-check`, "", token), id);
        }
        // A fresh submission the platform holds (the outbox sends it; these operations need a platform id).
        const submitted = await call("submitClaim", true);
        const id = submitted.headers.get("location")!.split("/").at(-2)!;
        await sendQueued();
        return operationId === "cancelClaim"
          ? api.cancelClaim(postFhir(`/api/exchange/claims/${id}/cancel`, { resourceType: "Parameters", parameter: [{ name: "reason", valueCode: "WI" }] }, token), id)
          : api.statusCheck(postFhir(`/api/exchange/claims/${id}/status-check`, "", token), id);
      }
      case "importVisitList":
        return api.importVisits(
          postJson("/api/exchange/visits", variant === "good" ? { visits: [{ nationalId: "1000000001", serviceDate: "2026-03-01" }, { nationalId: "1234567890", serviceDate: "2026-03-01", insurer: "payer-nowhere" }] } : { visits: "none" }, token),
        );
      case "visitListStatus": {
        if (variant === "bad") return api.visitsStatus(getFhir("/api/exchange/visits/x", token), randomUUID());
        const created = await call("importVisitList", true);
        const id = (created.headers.get("location") ?? "").split("/").at(-1)!;
        return api.visitsStatus(getFhir(`/api/exchange/visits/${id}`, token), id);
      }
      case "openApi":
        return api.openApi(new Request("https://portal.test/api/exchange/openapi.json"));
      default:
        throw new Error(`no handler for ${operationId}`);
    }
  }

  it("is OpenAPI 3.1 with a bearer JWT security scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.organizationJwt?.scheme).toBe("bearer");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/exchange/claims/submit",
      "/api/exchange/claims/{id}/cancel",
      "/api/exchange/claims/{id}/status",
      "/api/exchange/claims/{id}/status-check",
      "/api/exchange/coverage/{id}",
      "/api/exchange/eligibility/check",
      "/api/exchange/openapi.json",
      "/api/exchange/visits",
      "/api/exchange/visits/{id}",
    ]);
  });

  it("every documented path and method has a route file exporting that method", () => {
    for (const [apiPath, methods] of Object.entries(doc.paths)) {
      const file = routeFile(apiPath);
      expect(fs.existsSync(file), file).toBe(true);
      const source = fs.readFileSync(file, "utf8");
      for (const method of Object.keys(methods)) {
        expect(source, `${method.toUpperCase()} in ${file}`).toMatch(new RegExp(`export ((async )?function|const) ${method.toUpperCase()}\\b`));
      }
    }
  });

  it("every route file under app/api/exchange is documented", () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        // `[...path]` answers unknown paths with a 404 OperationOutcome: not an endpoint.
        if (entry.isDirectory() && entry.name !== "[...path]") walk(path.join(dir, entry.name));
        else if (entry.name === "route.ts") found.push(path.relative(path.join(ROOT, "app"), dir).split(path.sep).map((s) => s.replace(/^\[(.+)\]$/, "{$1}")).join("/"));
      }
    };
    walk(path.join(ROOT, "app/api/exchange"));
    expect(found.map((p) => `/${p}`).sort()).toEqual(Object.keys(doc.paths).sort());
  });

  it("every operation answers with documented statuses: authenticated (good and bad input) and without a token", async () => {
    for (const [apiPath, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const documented = Object.keys(op.responses);
        const secured = op.security === undefined || op.security.length > 0;
        const variants: ["good" | "bad", boolean][] = secured ? [["good", true], ["bad", true], ["good", false]] : [["good", false]];
        for (const [variant, authenticated] of variants) {
          const res = await call(op.operationId, authenticated, variant);
          const label = `${method.toUpperCase()} ${apiPath} (${variant}, ${authenticated ? "token" : "no token"}) → ${res.status}`;
          expect(documented, label).toContain(String(res.status));
          if (variant === "good" && authenticated) expect(res.status, label).toBeLessThan(300);
          if (!authenticated && secured) expect(res.status, label).toBe(401);
          if (res.status >= 400) expect(res.headers.get("content-type"), label).toMatch(/^application\/fhir\+json/);
          // The answer parses with the zod schema its status documents (the document is generated from it).
          const documentedResponse = op.responses[String(res.status)] as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
          const name = Object.values(documentedResponse?.content ?? {})[0]?.schema?.$ref?.split("/").at(-1) as keyof typeof EXCHANGE_API_SCHEMAS | undefined;
          if (name && name in EXCHANGE_API_SCHEMAS) {
            const parsed = EXCHANGE_API_SCHEMAS[name].schema.safeParse(await res.clone().json());
            expect(parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3)), `${label}: body is a ${name}`).toBe("");
          }
        }
      }
    }
  });
});

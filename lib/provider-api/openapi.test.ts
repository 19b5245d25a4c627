import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { coverages, insurers, patients, submissions } from "@/lib/db/schema";
import { startOutboxWorker } from "@/lib/submissions";
import { startPipeline } from "@/lib/pipeline";
import { buildClaim, startTestSandbox, testClient, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import { createPlatformClient, portFor, type PlatformClient } from "@/lib/platform";
import { eligibilityRequest } from "@/lib/platform/testing";
import { testDatabases } from "@/lib/testing/databases";
import { listPractitioners, seedDemoPractitioners } from "@/lib/facilities";
import { getFhir, newOrgKey, postFhir, registerOrg, signToken, testApi, testConfig, type TestOrgKey } from "./testing";
import type { ProviderApi } from "./index";
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
  let api: ProviderApi;
  let key: TestOrgKey;
  let doc: Doc;
  let coverageId: string;
  let prescriberLicense: string;
  /** A prescriber request is a message of the exchange: the prescription operations go through messaging. */
  let messaging: PlatformClient;
  let rxApi: ProviderApi;

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
    await seedDemoPractitioners(database.db);
    prescriberLicense = (await listPractitioners(database.db, null))[0]!.license;
    messaging = createPlatformClient({ ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001", providerName: "Sandbox Family Clinic", providerType: "5" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    rxApi = testApi(database.db, messaging, testConfig({ protocol: "messaging" }, sb.config.providerOrgId));
    const res = await api.openApi(new Request("https://portal.test/api/exchange/openapi.json"));
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  }, 180_000);
  afterAll(async () => {
    await messaging?.close();
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

  /** A prescription of the calling organization that the payer cut (5 refills asked, 3 approved): sent through messaging and decided. */
  async function decidedPrescription(): Promise<string> {
    await database.db.update(patients).set({ maritalStatus: "M" }).where(eq(patients.nationalId, "1000000001"));
    await database.db.update(coverages).set({ coverageClass: "GOLD" }).where(eq(coverages.id, coverageId));
    // In messaging the payer is addressed by its licence on the exchange (the demo catalogue's Rimal).
    await database.db.update(insurers).set({ license: "7000000101" }).where(eq(insurers.id, "payer-rimal"));
    const line = { by: "scientific", code: "XSC-0001", strength: "500 mg", doseValue: 1, doseUnit: "tablet", frequency: "3/d", durationDays: 10, refills: 5, quantity: 1 };
    const created = await rxApi.submitPrescription(postJson("/api/exchange/prescriptions", { nationalId: "1000000001", coverage: "cov-1000000001", prescriberLicense, diagnoses: ["J06.9"], lines: [line] }, await signToken(key, "openapi-client")));
    const id = (created.headers.get("location") ?? "").split("/").at(-1)!;
    const pipeline = startPipeline({
      db: database.db,
      client: portFor(messaging, database.db),
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 5, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 2_000, concurrency: 4, messagePollMs: 100 },
      log: () => {},
    });
    try {
      await waitFor(async () => (await database.db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, id)))[0]?.status === "partial", 30_000, "the prescription decided");
    } finally {
      await pipeline.stop();
    }
    return id;
  }

  /** Calls the handler behind a documented operation, with or without a valid token. */
  async function call(operationId: string, authenticated: boolean, variant: "good" | "bad" = "good"): Promise<Response> {
    let token = authenticated ? await signToken(key, "openapi-client") : undefined;
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
      case "changeAuthorization":
      case "sendEvidence": {
        if (variant === "bad") {
          const id = randomUUID();
          return operationId === "changeAuthorization" ? api.changeAuthorization(postFhir(`/api/exchange/claims/${id}/change`, { resourceType: "Claim" }, token), id) : api.sendEvidence(postFhir(`/api/exchange/claims/${id}/evidence`, { resourceType: "Parameters" }, token), id);
        }
        const use = operationId === "changeAuthorization" ? "preauthorization" : "claim";
        const first = { ...buildClaim({ use, items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] }), provider: { reference: `Organization/${provider}` }, identifier: [{ system: "urn:test", value: randomUUID() }] };
        const submitted = await api.submitClaim(postFhir("/api/exchange/claims/submit", first, await signToken(key, "openapi-client")));
        const id = submitted.headers.get("location")!.split("/").at(-2)!;
        await sendQueued();
        if (operationId === "sendEvidence") return api.sendEvidence(postFhir(`/api/exchange/claims/${id}/evidence`, { resourceType: "Parameters", parameter: [{ name: "text", valueString: "The report is attached." }] }, token), id);
        await waitFor(async () => ["complete", "partial"].includes((await database.db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, id)))[0]?.status ?? ""), 30_000, "authorization decided");
        const change = { ...first, identifier: [{ system: "urn:test", value: randomUUID() }] };
        return api.changeAuthorization(postFhir(`/api/exchange/claims/${id}/change`, change, token), id);
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
      case "verifyPrescription": {
        const line = { by: "scientific", code: "XSC-0001", strength: "500 mg", doseValue: 1, doseUnit: "tablet", frequency: "3/d", durationDays: 10, refills: 2, quantity: 1 };
        const body = variant === "good" ? { nationalId: "1000000001", coverage: "cov-1000000001", prescriberLicense, diagnoses: ["J06.9"], lines: [line] } : { lines: "none" };
        return api.submitPrescription(postJson("/api/exchange/prescriptions", body, token));
      }
      case "prescriptionAnswer": {
        if (variant === "bad") return api.prescriptionStatus(getFhir("/api/exchange/prescriptions/x", token), randomUUID());
        const created = await call("verifyPrescription", true);
        const id = (created.headers.get("location") ?? "").split("/").at(-1)!;
        return api.prescriptionStatus(getFhir(`/api/exchange/prescriptions/${id}`, token), id);
      }
      // Decision 121: a prescription's cancel, status check, information and appeal. The good variant
      // needs it at the platform (sent; REST refuses a prescriber request, so it is "rejected" there
      // and answered as such); each is called on the caller's own prescription.
      case "cancelPrescription":
      case "prescriptionStatusCheck":
      case "prescriptionEvidence":
      case "appealPrescription": {
        if (variant === "bad") {
          const unknown = randomUUID();
          if (operationId === "cancelPrescription") return api.cancelPrescription(postFhir(`/api/exchange/prescriptions/${unknown}/cancel`, { resourceType: "Parameters" }, token), unknown);
          if (operationId === "prescriptionStatusCheck") return api.prescriptionStatusCheck(postFhir(`/api/exchange/prescriptions/${unknown}/status-check`, "", token), unknown);
          if (operationId === "prescriptionEvidence") return api.prescriptionEvidence(postFhir(`/api/exchange/prescriptions/${unknown}/evidence`, { resourceType: "Parameters" }, token), unknown);
          return api.appealPrescription(postJson(`/api/exchange/prescriptions/${unknown}/appeal`, { sequences: "none" }, token), unknown);
        }
        const id = await decidedPrescription();
        // The token is signed after the prescription is decided (a token is taken once).
        token = authenticated ? await signToken(key, "openapi-client") : undefined;
        if (operationId === "cancelPrescription") return rxApi.cancelPrescription(postFhir(`/api/exchange/prescriptions/${id}/cancel`, { resourceType: "Parameters", parameter: [{ name: "reason", valueCode: "WI" }] }, token), id);
        if (operationId === "prescriptionStatusCheck") return rxApi.prescriptionStatusCheck(postFhir(`/api/exchange/prescriptions/${id}/status-check`, "", token), id);
        if (operationId === "prescriptionEvidence") return rxApi.prescriptionEvidence(postFhir(`/api/exchange/prescriptions/${id}/evidence`, { resourceType: "Parameters", parameter: [{ name: "text", valueString: "The report is attached." }] }, token), id);
        return rxApi.appealPrescription(postJson(`/api/exchange/prescriptions/${id}/appeal`, { sequences: [1], justification: "Chronic pain: five refills are needed." }, token), id);
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
      "/api/exchange/claims/{id}/change",
      "/api/exchange/claims/{id}/evidence",
      "/api/exchange/claims/{id}/status",
      "/api/exchange/claims/{id}/status-check",
      "/api/exchange/coverage/{id}",
      "/api/exchange/eligibility/check",
      "/api/exchange/openapi.json",
      "/api/exchange/prescriptions",
      "/api/exchange/prescriptions/{id}",
      "/api/exchange/prescriptions/{id}/appeal",
      "/api/exchange/prescriptions/{id}/cancel",
      "/api/exchange/prescriptions/{id}/evidence",
      "/api/exchange/prescriptions/{id}/status-check",
      "/api/exchange/visits",
      "/api/exchange/visits/{id}",
    ]);
  });

  it("the visit list's items take the card's expiry of a new patient's coverage, optional (decision 126)", () => {
    const visitList = JSON.stringify((doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas.VisitList);
    expect(visitList).toMatch(/"coverageExpiresOn":\{[^}]*"description":"The insurance card's expiry date, YYYY-MM-DD; optional/);
    expect(visitList).not.toMatch(/"required":\[[^\]]*"coverageExpiresOn"/);
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
  }, 300_000);
});

import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, coverages, eligibilityChecks, insurers, patients, submissions } from "@/lib/db/schema";
import { startOutboxWorker } from "@/lib/submissions";
import { getSubmission } from "@/lib/submissions";
import { nphies } from "@/lib/fhir";
import { buildClaim, startTestSandbox, testClient, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { eligibilityRequest } from "@/lib/platform/testing";
import { testDatabases } from "@/lib/testing/databases";
import { getFhir, json, newOrgKey, postFhir, registerOrg, signToken, testApi, testConfig, type TestOrgKey } from "./testing";
import type { ProviderApi } from "./index";

type Json = Record<string, unknown>;
type Param = { name: string; valueCode?: string; valueBoolean?: boolean; valueCoding?: { code?: string }; resource?: Json; part?: Param[]; valueIdentifier?: { system?: string; value?: string } };
const param = (body: Json, name: string) => (body.parameter as Param[]).find((p) => p.name === name);

describe.each(testDatabases())("provider-side exchange API against the sandbox on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let api: ProviderApi;
  let his: TestOrgKey;
  let lab: TestOrgKey;
  const patientUuid = randomUUID();
  const lapsedUuid = randomUUID();
  const coverageUuid = randomUUID();
  const lapsedCoverageUuid = randomUUID();

  beforeAll(async () => {
    database = await target.open();
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    api = testApi(database.db, client, testConfig({}, sb.config.providerOrgId));
    [his, lab] = await Promise.all([newOrgKey("ES256"), newOrgKey("RS256")]);
    await registerOrg(database.db, "his", his, "Hospital information system");
    await registerOrg(database.db, "lab", lab, "Laboratory");
    const db = database.db;
    await db.insert(insurers).values([
      { id: "payer-rimal", nameEn: "Rimal", nameAr: "رمال" },
      { id: "payer-wadi", nameEn: "Wadi", nameAr: "وادي" },
    ]).onConflictDoNothing();
    await db.insert(patients).values([
      { id: patientUuid, nationalId: "1000000001", givenName: "Test", familyName: "One", birthDate: "1985-03-14", gender: "female" },
      { id: lapsedUuid, nationalId: "1000000002", givenName: "Test", familyName: "Two", birthDate: "1979-11-02", gender: "male" },
    ]);
    await db.insert(coverages).values([
      { id: coverageUuid, patientId: patientUuid, insurerId: "payer-rimal", memberId: "RIM-1", coverageRef: "cov-1000000001" },
      { id: lapsedCoverageUuid, patientId: lapsedUuid, insurerId: "payer-wadi", memberId: "WAD-2", coverageRef: "cov-1000000002" },
    ]);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const tokenFor = (key: TestOrgKey, org: string) => signToken(key, org);

  describe("POST /api/exchange/eligibility/check", () => {
    it("answers the platform's CoverageEligibilityResponse and stores the check like a portal check", async () => {
      const request = eligibilityRequest("1000000001", "payer-rimal", sb.config.providerOrgId);
      const res = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", request, await tokenFor(his, "his")));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
      const body = await json(res);
      expect(body.resourceType).toBe("CoverageEligibilityResponse");
      expect((body.insurance as { inforce?: boolean }[])[0]?.inforce).toBe(true);
      const identifierValue = request.identifier![0]!.value!;
      const [check] = await database.db.select().from(eligibilityChecks).where(eq(eligibilityChecks.identifierValue, identifierValue));
      expect(check).toMatchObject({ patientId: patientUuid, coverageId: coverageUuid, outcome: "in_force", inforce: true, insurerId: "payer-rimal", httpStatus: 200 });
      const [entry] = await database.db.select().from(auditEvents).where(eq(auditEvents.targetId, check!.id));
      expect(entry).toMatchObject({ action: "exchange.eligibility.check", actorKind: "api", actorId: "his", outcome: "success" });
      expect(JSON.stringify(entry!.details)).not.toContain("1000000001");
    });

    it("fills in the provider when absent and refuses another provider (422 naming the field)", async () => {
      const request = eligibilityRequest("1000000001", "payer-rimal", sb.config.providerOrgId) as unknown as Json;
      delete request.provider;
      expect((await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", request, await tokenFor(his, "his")))).status).toBe(200);
      const other = { ...request, provider: { reference: "Organization/another-clinic" } };
      const res = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", other, await tokenFor(his, "his")));
      expect(res.status).toBe(422);
      const body = await json(res);
      expect((body.issue as { expression?: string[] }[])[0]?.expression).toEqual(["CoverageEligibilityRequest.provider"]);
    });

    it("in messaging, a check for a patient the portal has not registered (or without a coverage with that insurer) is 422 naming what to register, not a platform error; nothing is sent", async () => {
      const messaging = testApi(database.db, undefined, testConfig({ protocol: "messaging" }, sb.config.providerOrgId));
      const unknown = await messaging.eligibilityCheck(postFhir("/api/exchange/eligibility/check", eligibilityRequest("1000000003", "payer-rimal", sb.config.providerOrgId), await tokenFor(his, "his")));
      expect(unknown.status).toBe(422);
      expect(JSON.stringify(await json(unknown))).toContain("patient_not_registered");
      const noCoverage = await messaging.eligibilityCheck(postFhir("/api/exchange/eligibility/check", eligibilityRequest("1000000001", "payer-wadi", sb.config.providerOrgId), await tokenFor(his, "his")));
      expect(noCoverage.status).toBe(422);
      expect(JSON.stringify(await json(noCoverage))).toContain("coverage_not_registered");
    });

    it("a discovery (no coverage named) is answered with the coverages the insurer holds; a discovery naming a coverage is 422 naming insurance", async () => {
      const request = { ...eligibilityRequest("1000000001", "payer-rimal", sb.config.providerOrgId), purpose: ["discovery", "validation"] };
      const res = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", request, await tokenFor(his, "his")));
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(((body.contained as Json[] | undefined) ?? []).map((c) => c.id)).toContain("cov-1000000001");
      const messaging = testApi(database.db, undefined, testConfig({ protocol: "messaging" }, sb.config.providerOrgId));
      const named = { ...request, insurance: [{ focal: true, coverage: { reference: "Coverage/cov-1000000001" } }] };
      const refused = await messaging.eligibilityCheck(postFhir("/api/exchange/eligibility/check", named, await tokenFor(his, "his")));
      expect(refused.status).toBe(422);
      const problem = await json(refused);
      expect(JSON.stringify(problem)).toContain("discovery_with_coverage");
      expect(JSON.stringify(problem)).toContain("CoverageEligibilityRequest.insurance");
    });

    it("answers platform refusals with the platform's code and status (ERR-002 → 404)", async () => {
      const res = await api.eligibilityCheck(
        postFhir("/api/exchange/eligibility/check", eligibilityRequest("1000000003", "payer-rimal", sb.config.providerOrgId), await tokenFor(his, "his")),
      );
      expect(res.status).toBe(404);
      const body = await json(res);
      expect(body.resourceType).toBe("OperationOutcome");
      const coding = (body.issue as { details?: { coding?: { code?: string }[] } }[])[0]?.details?.coding?.[0];
      expect(coding?.code).toBe("ERR-002");
    });

    it("answers malformed and invalid bodies with 400/422 naming the field, never 500", async () => {
      const token = async () => tokenFor(his, "his");
      const notJson = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", "{not json", await token()));
      expect(notJson.status).toBe(400);
      const wrongType = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", { resourceType: "Claim" }, await token()));
      expect(wrongType.status).toBe(400);
      expect(((await json(wrongType)).issue as { expression?: string[] }[])[0]?.expression).toEqual(["resourceType"]);
      const missing = eligibilityRequest("1000000001", "payer-rimal") as unknown as Json;
      delete missing.patient;
      const r1 = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", missing, await token()));
      expect(r1.status).toBe(422);
      expect(((await json(r1)).issue as { expression?: string[] }[])[0]?.expression).toEqual(["CoverageEligibilityRequest.patient"]);
      const badDate = { ...eligibilityRequest("1000000001", "payer-rimal"), servicedDate: "21/11/2026" };
      const r2 = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", badDate, await token()));
      expect(r2.status).toBe(400);
      expect(((await json(r2)).issue as { expression?: string[] }[])[0]?.expression).toEqual(["CoverageEligibilityRequest.servicedDate"]);
      const wrongMedia = await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", eligibilityRequest("1000000001", "payer-rimal"), await token(), { "content-type": "text/plain" }));
      expect(wrongMedia.status).toBe(415);
    });
  });

  describe("GET /api/exchange/coverage/{id}", () => {
    it("answers an active Coverage for a coverage in force, by portal id or platform id", async () => {
      for (const id of [coverageUuid, "cov-1000000001"]) {
        const res = await api.coverage(getFhir(`/api/exchange/coverage/${id}`, await tokenFor(his, "his")), id);
        expect(res.status).toBe(200);
        const body = await json(res);
        expect(body).toMatchObject({
          resourceType: "Coverage",
          id: "cov-1000000001",
          status: "active",
          beneficiary: { reference: "Patient/1000000001" },
          payor: [{ reference: "Organization/payer-rimal" }],
        });
        expect((body.period as { start?: string }).start).toMatch(/^\d{4}-01-01/);
      }
      const checks = await database.db.select().from(eligibilityChecks).where(and(eq(eligibilityChecks.coverageId, coverageUuid)));
      expect(checks.some((c) => c.purposes.join() === "validation")).toBe(true);
    });

    it("answers cancelled for a lapsed coverage", async () => {
      const res = await api.coverage(getFhir(`/api/exchange/coverage/${lapsedCoverageUuid}`, await tokenFor(lab, "lab")), lapsedCoverageUuid);
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({ resourceType: "Coverage", status: "cancelled", beneficiary: { reference: "Patient/1000000002" } });
    });

    it("answers 404 OperationOutcome for an unknown coverage", async () => {
      for (const id of [randomUUID(), "cov-9999999999", "../../etc"]) {
        const res = await api.coverage(getFhir(`/api/exchange/coverage/x`, await tokenFor(his, "his")), id);
        expect(res.status).toBe(404);
        expect((await json(res)).resourceType).toBe("OperationOutcome");
      }
    });
  });

  describe("claims", () => {
    const claimBody = (use: "claim" | "preauthorization", identifier = randomUUID()) => ({
      ...buildClaim({ use, items: [{ code: "99213", price: 250 }] }),
      provider: { reference: `Organization/${sb.config.providerOrgId}` },
      identifier: [{ system: "https://his.clinic.example/claims", value: identifier }],
    });

    it("queues a claim: 202, Location, a queued ClaimResponse; stored with channel and org client", async () => {
      const res = await api.submitClaim(postFhir("/api/exchange/claims/submit", claimBody("claim"), await tokenFor(his, "his")));
      expect(res.status).toBe(202);
      const body = await json(res);
      expect(body).toMatchObject({ resourceType: "ClaimResponse", outcome: "queued", use: "claim" });
      const submissionId = (body.identifier as { system: string; value: string }[])[0]!.value;
      expect(res.headers.get("location")).toBe(`/api/exchange/claims/${submissionId}/status`);
      const row = await getSubmission(database.db, submissionId);
      expect(row).toMatchObject({ status: "queued", channel: "exchange-api", createdBy: "org:his", kind: "claim", patientNationalId: "1000000001", insurerId: "payer-rimal" });
      // Every line carries the patient's share, as a claim from the screens does (docs/decisions/091).
      const items = (row!.claim as { item: { extension?: { url: string; valueMoney?: { value: number; currency: string } }[] }[] }).item;
      expect(items.map((i) => i.extension?.find((e) => e.url === nphies.EXTENSIONS.patientShare)?.valueMoney)).toEqual([{ value: expect.any(Number), currency: "SAR" }]);
    });

    it("is idempotent per client and Claim.identifier", async () => {
      const body = claimBody("claim");
      const first = await api.submitClaim(postFhir("/api/exchange/claims/submit", body, await tokenFor(his, "his")));
      const [second, third] = await Promise.all([
        api.submitClaim(postFhir("/api/exchange/claims/submit", body, await tokenFor(his, "his"))),
        api.submitClaim(postFhir("/api/exchange/claims/submit", body, await tokenFor(his, "his"))),
      ]);
      expect([first.status, second.status, third.status]).toEqual([202, 202, 202]);
      expect(second.headers.get("location")).toBe(first.headers.get("location"));
      expect(third.headers.get("location")).toBe(first.headers.get("location"));
      expect([second.headers.get("x-idempotent-replay"), third.headers.get("x-idempotent-replay")]).toEqual(["true", "true"]);
      const rows = await database.db.select().from(submissions).where(eq(submissions.createdBy, "org:his"));
      const same = rows.filter((r) => JSON.stringify(r.claim.identifier).includes(body.identifier[0]!.value));
      expect(same).toHaveLength(1);
      // Another client with the same identifier is another submission.
      const other = await api.submitClaim(postFhir("/api/exchange/claims/submit", body, await tokenFor(lab, "lab")));
      expect(other.status).toBe(202);
      expect(other.headers.get("location")).not.toBe(first.headers.get("location"));
    });

    it("refuses a claim without identifier, with another provider or predetermination (422 naming the field)", async () => {
      const noId = { ...claimBody("claim"), identifier: undefined };
      const r1 = await api.submitClaim(postFhir("/api/exchange/claims/submit", noId, await tokenFor(his, "his")));
      expect(r1.status).toBe(422);
      expect(((await json(r1)).issue as { expression?: string[] }[])[0]?.expression).toEqual(["Claim.identifier"]);
      const r2 = await api.submitClaim(postFhir("/api/exchange/claims/submit", { ...claimBody("claim"), provider: { reference: "Organization/x" } }, await tokenFor(his, "his")));
      expect(r2.status).toBe(422);
      const r3 = await api.submitClaim(postFhir("/api/exchange/claims/submit", { ...claimBody("claim"), use: "predetermination" }, await tokenFor(his, "his")));
      expect(r3.status).toBe(422);
      expect(((await json(r3)).issue as { expression?: string[] }[])[0]?.expression).toEqual(["Claim.use"]);
      const r4 = await api.submitClaim(postFhir("/api/exchange/claims/submit", { ...claimBody("claim"), item: [{ sequence: "one" }] }, await tokenFor(his, "his")));
      expect(r4.status).toBe(400);
      expect(((await json(r4)).issue as { expression?: string[] }[]).map((i) => i.expression?.[0])).toContain("Claim.item[0].sequence");
    });

    it("refuses text PostgreSQL cannot store, totals too large and bodies over the limit — never 500", async () => {
      const nul = { ...claimBody("claim"), status: "active\u0000" };
      const r1 = await api.submitClaim(postFhir("/api/exchange/claims/submit", nul, await tokenFor(his, "his")));
      expect(r1.status).toBe(400);
      expect(((await json(r1)).issue as { expression?: string[] }[])[0]?.expression).toEqual(["status"]);
      const huge = { ...claimBody("claim"), item: [{ sequence: 1, productOrService: { coding: [{ code: "99213" }] }, quantity: { value: 1000 }, unitPrice: { value: 90_000_000, currency: "SAR" } }] };
      const r2 = await api.submitClaim(postFhir("/api/exchange/claims/submit", huge, await tokenFor(his, "his")));
      expect(r2.status).toBe(422);
      const small = testApi(database.db, client, testConfig({ maxBodyBytes: 200 }, sb.config.providerOrgId));
      const r3 = await small.submitClaim(postFhir("/api/exchange/claims/submit", claimBody("claim"), await tokenFor(his, "his")));
      expect(r3.status).toBe(413);
      expect((await json(r3)).resourceType).toBe("OperationOutcome");
    });

    it("audits submissions by id, never with patient identifiers", async () => {
      const requestId = randomUUID();
      const res = await api.submitClaim(postFhir("/api/exchange/claims/submit", claimBody("claim"), await tokenFor(his, "his"), { "x-request-id": requestId }));
      expect(res.status).toBe(202);
      expect(res.headers.get("x-request-id")).toBe(requestId);
      // One entry for the call, written by the intake in the submission's transaction (decision 129).
      const entries = await database.db.select().from(auditEvents).where(eq(auditEvents.requestId, requestId));
      expect(entries).toHaveLength(1);
      const [entry] = entries;
      expect(entry).toMatchObject({ action: "exchange.claim.submit", actorKind: "api", actorId: "his", actorLabel: "Hospital information system", outcome: "success", targetType: "submission" });
      expect(entry!.details).toMatchObject({ status: 202, kind: "claim", replay: false });
      expect(JSON.stringify(entry)).not.toContain("1000000001");
    });

    it("status: timeline while queued, the ClaimResponse once adjudicated; other clients get 404", async () => {
      const res = await api.submitClaim(postFhir("/api/exchange/claims/submit", claimBody("preauthorization"), await tokenFor(his, "his")));
      const id = ((await json(res)).identifier as { value: string }[])[0]!.value;
      const queued = await api.claimStatus(getFhir(`/api/exchange/claims/${id}/status`, await tokenFor(his, "his")), id);
      expect(queued.status).toBe(200);
      const qBody = await json(queued);
      expect(qBody.resourceType).toBe("Parameters");
      expect(param(qBody, "status")?.valueCoding?.code).toBe("queued");
      expect(param(qBody, "clientIdentifier")?.valueIdentifier?.system).toBe("https://his.clinic.example/claims");
      expect((qBody.parameter as Param[]).filter((p) => p.name === "event").map((e) => e.part?.find((p) => p.name === "to")?.valueCode)).toEqual(["draft", "queued"]);

      const foreign = await api.claimStatus(getFhir(`/api/exchange/claims/${id}/status`, await tokenFor(lab, "lab")), id);
      expect(foreign.status).toBe(404);
      expect((await json(foreign)).resourceType).toBe("OperationOutcome");

      const worker = startOutboxWorker({
        db: database.db,
        client,
        pollMs: 30,
        leaseMs: 30_000,
        maxAttempts: 3,
        backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 },
        pollAfterMs: 60_000,
        log: () => {},
      });
      try {
        await waitFor(async () => {
          const row = await getSubmission(database.db, id);
          return row && ["complete", "partial", "denied"].includes(row.status);
        }, 60_000, "preauthorization decided");
      } finally {
        await worker.stop();
      }
      const decided = await json(await api.claimStatus(getFhir(`/api/exchange/claims/${id}/status`, await tokenFor(his, "his")), id));
      expect(["complete", "partial", "denied"]).toContain(param(decided, "status")?.valueCoding?.code);
      expect(param(decided, "claimResponse")?.resource?.resourceType).toBe("ClaimResponse");
      expect(param(decided, "platformClaim")).toBeDefined();
      const moves = (decided.parameter as Param[]).filter((p) => p.name === "event").map((e) => e.part?.find((p) => p.name === "to")?.valueCode);
      expect(moves.slice(0, 2)).toEqual(["draft", "queued"]);
      expect(moves.length).toBeGreaterThanOrEqual(3);

      // Decision 046: ask the platform now — it agrees with the decision the portal holds.
      const checked = await api.statusCheck(postFhir(`/api/exchange/claims/${id}/status-check`, "", await tokenFor(his, "his")), id);
      expect(checked.status).toBe(200);
      const check = param(await json(checked), "statusCheck")?.part ?? [];
      expect(check.find((p) => p.name === "agree")).toMatchObject({ valueBoolean: true });
      expect(check.find((p) => p.name === "platformStatus")?.valueCode).toBe(param(decided, "status")?.valueCoding?.code);

      // An id that is not a submission id is simply unknown.
      const again = await api.claimStatus(getFhir(`/api/exchange/claims/not-a-uuid/status`, await tokenFor(his, "his")), "not-a-uuid");
      expect(again.status).toBe(404);
    });

    it("cancel and status check: refused before the platform holds it, bad reasons named, cancelled once the platform completes the Task", async () => {
      const token = () => tokenFor(his, "his");
      const res = await api.submitClaim(postFhir("/api/exchange/claims/submit", claimBody("preauthorization"), await token()));
      const id = ((await json(res)).identifier as { value: string }[])[0]!.value;
      const cancel = async (body: unknown, who = token) => api.cancelClaim(postFhir(`/api/exchange/claims/${id}/cancel`, body, await who()), id);
      const reason = (code: string) => ({ resourceType: "Parameters", parameter: [{ name: "reason", valueCode: code }] });
      const outcome = async (response: Response) => ((await json(response)).issue as { diagnostics?: string; expression?: string[] }[])[0]!;

      // Not at the platform yet: nothing to check or cancel.
      const early = await api.statusCheck(postFhir(`/api/exchange/claims/${id}/status-check`, "", await token()), id);
      expect(early.status).toBe(409);
      expect((await outcome(early)).diagnostics).toMatch(/Not at the platform yet/);
      expect((await cancel(reason("NP"))).status).toBe(409);
      // Bad bodies say what to fix; another organization does not see it.
      const unknownReason = await cancel(reason("BECAUSE"));
      expect(unknownReason.status).toBe(400);
      expect((await outcome(unknownReason)).expression).toEqual(["Parameters.parameter[0].valueCode"]);
      const noReason = await cancel({ resourceType: "Parameters" });
      expect(noReason.status).toBe(422);
      expect((await outcome(noReason)).expression).toEqual(["Parameters.parameter"]);
      expect((await cancel("{not json")).status).toBe(400);
      expect((await cancel(reason("NP"), () => tokenFor(lab, "lab"))).status).toBe(404);

      const worker = startOutboxWorker({ db: database.db, client, pollMs: 30, leaseMs: 30_000, maxAttempts: 3, backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 }, pollAfterMs: 60_000, log: () => {} });
      try {
        await waitFor(async () => (await getSubmission(database.db, id))?.platformId, 30_000, "sent to the platform");
      } finally {
        await worker.stop();
      }
      const cancelled = await cancel(reason("NP"));
      expect(cancelled.status).toBe(200);
      const body = await json(cancelled);
      expect(param(body, "status")?.valueCoding?.code).toBe("cancelled");
      const last = (body.parameter as Param[]).filter((p) => p.name === "event").at(-1)!.part!;
      expect(last.find((p) => p.name === "to")?.valueCode).toBe("cancelled");
      expect(last.find((p) => p.name === "cancelReason")?.valueCode).toBe("NP");
      expect((await getSubmission(database.db, id))?.status).toBe("cancelled");
      // Once cancelled, again is refused, and the platform agrees it is cancelled.
      const twice = await cancel(reason("NP"));
      expect(twice.status).toBe(409);
      const [entry] = await database.db.select().from(auditEvents).where(and(eq(auditEvents.action, "exchange.claim.cancel"), eq(auditEvents.targetId, id), eq(auditEvents.outcome, "success")));
      expect(entry).toMatchObject({ actorKind: "api", actorId: "his" });
    });
  });
});

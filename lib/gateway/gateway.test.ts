import { assertReadableByPortal } from "@/lib/fhir/read/testing/own-answers";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayToken, revokeGatewayToken } from "@/lib/api-access/credentials";
import type { Db } from "@/lib/db";
import { auditEvents, coverages, eligibilityChecks, insurers, patients, submissions } from "@/lib/db/schema";
import { startOutboxWorker, type OutboxWorker } from "@/lib/submissions";
import { getSubmission } from "@/lib/submissions";
import { buildClaim, startTestSandbox, testClient, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { GatewayConfigError, parseGatewayConfig, type GatewayConfig } from "./config";
import { AGENT_TASKS, GATEWAY_SCHEMAS, createGateway, gatewayOpenApiDocument, type Gateway } from "./index";
import fs from "node:fs";
import path from "node:path";

type OpenApiDoc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const ROOT = path.resolve(__dirname, "../..");

type Json = Record<string, unknown>;

const AGENTS = "ClaimLinc=claim,RecordLinc=record,AuthLinc=authorization,NotifyLinc=notification";
const DECIDED = ["complete", "partial", "denied"];

function post(path: string, body: unknown, token: string | undefined, headers: Record<string, string> = {}): Request {
  return new Request(`http://portal.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function get(path: string, token: string | undefined): Request {
  return new Request(`http://portal.test${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

/** The JSON body; a FHIR resource in it must also parse in the portal's own readers. */
const json = async (res: Response) => {
  const body = (await res.json()) as Json;
  assertReadableByPortal(body);
  return body;
};

describe.each(testDatabases())("agent gateway against the sandbox on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let db: Db;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let worker: OutboxWorker;
  let config: GatewayConfig;
  let gw: Gateway;
  let token: string;
  let tokenId: string;
  let other: string;
  let revoked: string;
  const patientUuid = randomUUID();
  const q = (body: unknown, t: string | undefined = token) => gw.query(post("/query", body, t));

  beforeAll(async () => {
    database = await target.open();
    db = database.db;
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = testClient(db, sb.config);
    worker = startOutboxWorker({
      db,
      client,
      pollMs: 30,
      leaseMs: 30_000,
      maxAttempts: 3,
      backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 },
      pollAfterMs: 300,
      log: () => undefined,
    });
    config = parseGatewayConfig({ GATEWAY_AGENTS: AGENTS, PROVIDER_ORG_ID: sb.config.providerOrgId, PLATFORM_ENV: "sandbox", GATEWAY_RATE_PER_MINUTE: "100000" });
    gw = createGateway({ db: async () => db, config: () => config, warn: () => undefined, port: client });
    const main = await createGatewayToken(db, { name: "Claims assistant" });
    token = main.token;
    tokenId = main.record.id;
    other = (await createGatewayToken(db, { name: "Other automation" })).token;
    const gone = await createGatewayToken(db, { name: "Old bot" });
    await revokeGatewayToken(db, { id: gone.record.id });
    revoked = gone.token;
    await db.insert(insurers).values({ id: "payer-rimal", nameEn: "Rimal", nameAr: "رمال" }).onConflictDoNothing();
    await db.insert(patients).values({ id: patientUuid, nationalId: "1000000001", givenName: "Test", familyName: "One", birthDate: "1985-03-14", gender: "female", phone: "+966512345678" });
    const [cov] = await db.insert(coverages).values({ patientId: patientUuid, insurerId: "payer-rimal", memberId: "RIM-1", coverageRef: "cov-1000000001" }).returning();
    await db.insert(eligibilityChecks).values({
      patientId: patientUuid,
      coverageId: cov!.id,
      insurerId: "payer-rimal",
      servicedDate: "2026-11-21",
      purposes: ["benefits"],
      requestId: randomUUID(),
      identifierValue: randomUUID(),
      request: {},
      outcome: "in_force",
      inforce: true,
      httpStatus: 200,
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  describe("authentication", () => {
    it("answers 401 with WWW-Authenticate: Bearer for no, malformed, unknown and revoked tokens", async () => {
      const body = { agent: "notification", task: "list", data: {} };
      const cases: [Request, string][] = [
        [post("/query", body, undefined), "missing"],
        [post("/query", body, undefined, { authorization: `Basic ${token}` }), "malformed"],
        [post("/query", body, `${token.slice(0, -2)}${token.endsWith("zz") ? "yy" : "zz"}`), "unknown"],
        [post("/query", body, "cxk_live_whatever"), "unknown"],
        [post("/query", body, revoked), "revoked"],
      ];
      for (const [request, reason] of cases) {
        const requestId = randomUUID();
        request.headers.set("x-request-id", requestId);
        const res = await gw.query(request);
        expect(res.status, reason).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        const answer = await json(res);
        expect(answer).toMatchObject({ error: "unauthenticated", reason: `token_${reason}` });
        expect(typeof answer.message).toBe("string");
        const [entry] = await db.select().from(auditEvents).where(eq(auditEvents.requestId, requestId));
        expect(entry).toMatchObject({ action: "gateway.query", outcome: "denied", details: { status: 401, reason: `token_${reason}` } });
      }
    });

    it("accepts brand names and role names alike; unknown agents and tasks list the valid ones", async () => {
      for (const agent of ["NotifyLinc", "notification"]) {
        const res = await q({ agent, task: "list", data: {} });
        expect(res.status).toBe(200);
        expect(await json(res)).toMatchObject({ agent, role: "notification", task: "list" });
      }
      const unknown = await q({ agent: "notifylinc", task: "list", data: {} });
      expect(unknown.status).toBe(400);
      expect(await json(unknown)).toEqual({
        error: "invalid_request",
        reason: "unknown_agent",
        message: expect.any(String),
        valid: ["ClaimLinc", "RecordLinc", "AuthLinc", "NotifyLinc", "claim", "record", "authorization", "notification"],
      });
      const task = await q({ agent: "ClaimLinc", task: "delete", data: {} });
      expect(task.status).toBe(400);
      expect(await json(task)).toMatchObject({ error: "invalid_request", reason: "unknown_task", valid: ["submit", "status", "cancel", "check"] });
      const proto = await q({ agent: "claim", task: "constructor", data: {} });
      expect(proto.status).toBe(400);
      // The Content-Type rule of every JSON endpoint (lib/api checkJsonContentType): a body without
      // one, another type, another charset or an overlong parameter list is refused 415.
      const bytes = new TextEncoder().encode(JSON.stringify({ agent: "record", task: "lookup", data: { nationalId: "1000000002" } }));
      const bare = await gw.query(new Request("http://portal.test/query", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: bytes }));
      expect(bare.status).toBe(415);
      expect(await json(bare)).toMatchObject({ error: "unsupported_media_type", reason: "content_type" });
      expect((await gw.query(post("/query", "{}", token, { "content-type": "text/plain" }))).status).toBe(415);
      const utf16 = await gw.query(post("/query", "{}", token, { "content-type": "application/json; charset=utf-16" }));
      expect(utf16.status).toBe(415);
      expect(await json(utf16)).toMatchObject({ reason: "charset" });
      const long = await gw.query(post("/query", "{}", token, { "content-type": `application/json; x=${"a".repeat(5000)}` }));
      expect(await json(long)).toMatchObject({ error: "unsupported_media_type", reason: "content_type_parameters" });
    });

    it("rate-limits per token with 429 and Retry-After", async () => {
      const limited = createGateway({ db: async () => db, config: () => ({ ...config, ratePerMinute: 2 }), warn: () => undefined });
      const own = (await createGatewayToken(db, { name: "Chatty bot" })).token;
      const body = { agent: "record", task: "lookup", data: { nationalId: "1000000002" } };
      expect((await limited.query(post("/query", body, own))).status).toBe(200);
      expect((await limited.query(post("/query", body, own))).status).toBe(200);
      const res = await limited.query(post("/query", body, own));
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await json(res)).toMatchObject({ error: "rate_limited" });
      // Another token has its own budget.
      expect((await limited.query(post("/query", body, other))).status).toBe(200);
    });

    it("answers 503 naming the variable when GATEWAY_AGENTS is invalid", async () => {
      const broken = createGateway({
        db: async () => db,
        config: () => parseGatewayConfig({ GATEWAY_AGENTS: "ClaimLinc=billing" }),
        warn: () => undefined,
      });
      const res = await broken.query(post("/query", { agent: "claim", task: "status", data: {} }, token));
      expect(res.status).toBe(503);
      const body = await json(res);
      expect(body).toMatchObject({ error: "unavailable", reason: "gateway_misconfigured" });
      expect(String(body.message)).toContain("GATEWAY_AGENTS");
      expect(() => parseGatewayConfig({ GATEWAY_AGENTS: "x" })).toThrow(GatewayConfigError);
    });
  });

  describe("claim and authorization agents", () => {
    it("submits a claim through the pipeline (channel gateway); the sandbox decides it; status by id and identifier", async () => {
      const requestId = randomUUID();
      const claim = buildClaim({ use: "claim", items: [{ code: "99213", price: 150 }] });
      delete claim.provider;
      const res = await gw.query(post("/query", { agent: "ClaimLinc", task: "submit", data: { claim } }, token, { "x-request-id": requestId }));
      expect(res.status).toBe(202);
      expect(res.headers.get("x-request-id")).toBe(requestId);
      const body = await json(res);
      const result = body.result as Json;
      expect(body).toMatchObject({ agent: "ClaimLinc", task: "submit" });
      expect(result).toMatchObject({ kind: "claim", status: "queued", replay: false, next: { agent: "ClaimLinc", task: "status" } });
      const id = result.submissionId as string;
      const row = await getSubmission(db, id);
      expect(row).toMatchObject({ channel: "gateway", createdBy: `gateway:${tokenId}`, patientNationalId: "1000000001", insurerId: "payer-rimal" });
      expect((row!.claim.provider as Json).reference).toBe(`Organization/${sb.config.providerOrgId}`);

      const decided = await waitFor(async () => {
        const s = await getSubmission(db, id);
        return s && DECIDED.includes(s.status) ? s : undefined;
      }, 60_000, "claim decided");
      const status = await json(await q({ agent: "claim", task: "status", data: { submissionId: id } }));
      const sr = status.result as Json;
      expect(sr).toMatchObject({ submissionId: id, kind: "claim", status: decided.status, channel: "gateway", platformClaimId: expect.any(String) });
      expect((sr.decision as Json).outcome).toBeTruthy();
      expect((sr.timeline as Json[]).map((e) => e.to)).toEqual(expect.arrayContaining(["draft", "queued", "sent", decided.status]));
      const byIdentifier = await json(await q({ agent: "ClaimLinc", task: "status", data: { identifier: decided.identifierValue } }));
      expect((byIdentifier.result as Json).submissionId).toBe(id);

      const entries = await db.select().from(auditEvents).where(eq(auditEvents.requestId, requestId));
      expect(entries).toHaveLength(1);
      const [entry] = entries;
      expect(entry).toMatchObject({ action: "gateway.claim.submit", actorKind: "api", actorId: tokenId, actorLabel: "Claims assistant", outcome: "success", targetId: id });
      expect(JSON.stringify(entry!.details)).not.toContain("1000000001");
    });

    it("returns the first submission again for a resubmission with the caller's identifier", async () => {
      const claim = { ...buildClaim({ use: "claim", items: [{ code: "99213", price: 80 }] }), identifier: [{ system: "https://his.example/claims", value: "HIS-42" }] };
      const first = await q({ agent: "claim", task: "submit", data: { claim } });
      expect(first.status).toBe(202);
      const again = await q({ agent: "claim", task: "submit", data: { claim } });
      // One replay status for both APIs (docs/decisions/032): the first answer's 202 again.
      expect(again.status).toBe(202);
      const [a, b] = [(await json(first)).result as Json, (await json(again)).result as Json];
      expect(b.submissionId).toBe(a.submissionId);
      expect(b.replay).toBe(true);
      const rows = await db.select().from(submissions).where(and(eq(submissions.channel, "gateway"), eq(submissions.createdBy, `gateway:${tokenId}`)));
      expect(rows.filter((r) => JSON.stringify(r.claim.identifier).includes("HIS-42"))).toHaveLength(1);
      const byOwn = await json(await q({ agent: "claim", task: "status", data: { identifier: "HIS-42" } }));
      expect((byOwn.result as Json).submissionId).toBe(a.submissionId);
    });

    it("requests a prior authorization and reports its decision", async () => {
      const claim = buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] });
      const res = await q({ agent: "AuthLinc", task: "request", data: { claim } });
      expect(res.status).toBe(202);
      const id = ((await json(res)).result as Json).submissionId as string;
      const final = await waitFor(async () => {
        const s = await getSubmission(db, id);
        return s && [...DECIDED, "rejected", "failed"].includes(s.status) ? s : undefined;
      }, 60_000, "authorization decided");
      expect(final.status).toBe("complete");
      const status = await json(await q({ agent: "authorization", task: "status", data: { submissionId: id } }));
      expect(status.result).toMatchObject({ kind: "preauthorization", decision: { outcome: expect.any(String) } });
      // An authorization is not a claim.
      expect((await q({ agent: "claim", task: "status", data: { submissionId: id } })).status).toBe(404);
    });

    it("checks a claim's status with the platform and cancels an authorization by identifier (docs/decisions/046)", async () => {
      const claim = buildClaim({ use: "claim", items: [{ code: "99213", price: 150 }], diagnoses: ["R51"] });
      const claimId = ((await json(await q({ agent: "claim", task: "submit", data: { claim } }))).result as Json).submissionId as string;
      const decided = await waitFor(async () => {
        const s = await getSubmission(db, claimId);
        return s && DECIDED.includes(s.status) ? s : undefined;
      }, 60_000, "claim decided");
      const check = await json(await q({ agent: "claim", task: "check", data: { submissionId: claimId } }));
      expect(check.result).toMatchObject({ submissionId: claimId, portal: decided.status, platform: decided.status, agree: true, updated: false });

      const auth = buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] });
      const authId = ((await json(await q({ agent: "authorization", task: "request", data: { claim: auth } }))).result as Json).submissionId as string;
      const sent = await waitFor(async () => {
        const s = await getSubmission(db, authId);
        return s?.platformId ? s : undefined;
      }, 60_000, "authorization sent");
      // A reason outside the exchange's codes is named; an authorization is not a claim.
      const badReason = await q({ agent: "authorization", task: "cancel", data: { submissionId: authId, reason: "because" } });
      expect(badReason.status).toBe(422);
      expect(await json(badReason)).toMatchObject({ issues: [{ path: expect.stringContaining("reason") }] });
      expect((await q({ agent: "claim", task: "cancel", data: { submissionId: authId, reason: "NP" } })).status).toBe(404);
      const cancelled = await json(await q({ agent: "AuthLinc", task: "cancel", data: { identifier: sent.identifierValue, reason: "NP" } }));
      expect(cancelled.result).toEqual({ submissionId: authId, cancelled: true, status: "cancelled" });
      expect((await getSubmission(db, authId))?.status).toBe("cancelled");
      const again = await q({ agent: "authorization", task: "cancel", data: { submissionId: authId, reason: "NP" } });
      expect(again.status).toBe(409);
      expect(await json(again)).toMatchObject({ reason: "not_cancellable" });
    });

    it("refuses the wrong use, another provider, a bad patient and invalid fields with 422 naming the field", async () => {
      const pre = buildClaim({ use: "preauthorization", items: [{ code: "99213", price: 1 }] });
      const wrongUse = await json(await q({ agent: "claim", task: "submit", data: { claim: pre } }));
      expect(wrongUse).toMatchObject({ error: "unprocessable", reason: "use", issues: [{ path: "data.claim.use" }] });
      const otherProvider = { ...buildClaim({ use: "claim", items: [{ code: "99213", price: 1 }] }), provider: { reference: "Organization/elsewhere" } };
      expect(await json(await q({ agent: "claim", task: "submit", data: { claim: otherProvider } }))).toMatchObject({ issues: [{ path: "data.claim.provider" }] });
      const badPatient = buildClaim({ use: "claim", patientId: "1234567890", items: [{ code: "99213", price: 1 }] });
      expect(await json(await q({ agent: "claim", task: "submit", data: { claim: badPatient } }))).toMatchObject({ issues: [{ path: "data.claim.patient.reference" }] });
      const badItem = buildClaim({ use: "claim", items: [{ code: "99213", price: 1 }] });
      (badItem.item as Json[])[0]!.servicedDate = "21/11/2026";
      const res = await q({ agent: "claim", task: "submit", data: { claim: badItem } });
      // A wrong format is a malformed Claim: 400, as on the exchange API (one Claim validation, docs/decisions/031).
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ issues: [{ path: "data.claim.item[0].servicedDate" }] });
      expect((await q({ agent: "claim", task: "submit", data: {} })).status).toBe(422);
      expect((await q({ agent: "claim", task: "status", data: { submissionId: "x" } })).status).toBe(422);
      expect((await q({ agent: "claim", task: "status", data: { submissionId: randomUUID() } })).status).toBe(404);
    });
  });

  describe("record agent", () => {
    it("looks a patient up by national ID without extra personal data", async () => {
      const res = await q({ agent: "RecordLinc", task: "lookup", data: { nationalId: "1000000001" } });
      expect(res.status).toBe(200);
      const result = (await json(res)).result as Json;
      expect(result).toEqual({
        found: true,
        patient: { patientId: patientUuid, name: "Test One", gender: "female", birthYear: 1985, coverages: 1, insurers: ["payer-rimal"] },
      });
      expect(JSON.stringify(result)).not.toContain("+966");
      expect(JSON.stringify(result)).not.toContain("1985-03-14");
      expect(((await json(await q({ agent: "record", task: "lookup", data: { nationalId: "1000000002" } }))).result as Json).found).toBe(false);
      const invalid = await q({ agent: "record", task: "lookup", data: { nationalId: "12345" } });
      expect(invalid.status).toBe(422);
      const entries = await db.select().from(auditEvents).where(eq(auditEvents.action, "gateway.record.lookup"));
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) expect(JSON.stringify(e)).not.toContain("1000000001");
    });

    it("summarises coverages, the latest eligibility outcome and the submissions by status", async () => {
      for (const data of [{ patientId: patientUuid }, { nationalId: "1000000001" }]) {
        const res = await q({ agent: "record", task: "summary", data });
        expect(res.status).toBe(200);
        const result = (await json(res)).result as Json;
        expect(result).toMatchObject({
          patient: { patientId: patientUuid },
          coverages: [{ platformCoverageId: "cov-1000000001", insurerId: "payer-rimal", insurerName: { en: "Rimal" } }],
          latestEligibility: { outcome: "in_force", inforce: true },
        });
        expect((result.claims as { total: number }).total).toBeGreaterThanOrEqual(2);
        expect((result.authorizations as { total: number }).total).toBeGreaterThanOrEqual(1);
      }
      expect((await q({ agent: "record", task: "summary", data: { patientId: randomUUID() } })).status).toBe(404);
    });
  });

  describe("notification agent", () => {
    it("lists status changes after a cursor and keeps each token's acknowledgement", async () => {
      const first = await json(await q({ agent: "notification", task: "list", data: { limit: 200 } }));
      const r1 = first.result as { events: Json[]; cursor: number; acknowledgedUpTo: number; hasMore: boolean };
      expect(r1.acknowledgedUpTo).toBe(0);
      expect(r1.events.length).toBeGreaterThan(3);
      expect(r1.events.some((e) => e.kind === "authorization")).toBe(true);
      expect(r1.events.some((e) => DECIDED.includes(e.to as string))).toBe(true);
      expect(JSON.stringify(r1)).not.toContain("1000000001");

      const page = await json(await q({ agent: "notification", task: "list", data: { limit: 2 } }));
      const r2 = page.result as { events: Json[]; cursor: number; hasMore: boolean };
      expect(r2.events).toHaveLength(2);
      expect(r2.hasMore).toBe(true);
      const next = ((await json(await q({ agent: "notification", task: "list", data: { limit: 2, cursor: r2.cursor } }))).result as { events: Json[] }).events;
      expect(next[0]!.eventId as number).toBeGreaterThan(r2.cursor);

      const mid = r1.events[2]!.eventId as number;
      const ack = await q({ agent: "NotifyLinc", task: "acknowledge", data: { upTo: mid } });
      expect(ack.status).toBe(200);
      expect((await json(ack)).result).toEqual({ previous: 0, acknowledgedUpTo: mid });
      const after = (await json(await q({ agent: "notification", task: "list", data: {} }))).result as { events: Json[]; acknowledgedUpTo: number };
      expect(after.acknowledgedUpTo).toBe(mid);
      expect(after.events[0]!.eventId as number).toBeGreaterThan(mid);
      // Never backwards; never past the newest event.
      expect((await json(await q({ agent: "notification", task: "acknowledge", data: { upTo: 1 } }))).result).toEqual({ previous: mid, acknowledgedUpTo: mid });
      expect((await q({ agent: "notification", task: "acknowledge", data: { upTo: 10_000_000 } })).status).toBe(422);
      // Another token has its own position.
      const theirs = (await json(await q({ agent: "notification", task: "list", data: {} }, other))).result as { acknowledgedUpTo: number };
      expect(theirs.acknowledgedUpTo).toBe(0);
      // Only this token's own submissions.
      const mine = (await json(await q({ agent: "notification", task: "list", data: { mine: true, cursor: 0, kind: "authorization" } }))).result as { events: Json[] };
      expect(mine.events.length).toBeGreaterThan(0);
      expect(mine.events.every((e) => e.kind === "authorization")).toBe(true);
      const none = (await json(await q({ agent: "notification", task: "list", data: { mine: true, cursor: 0 } }, other))).result as { events: Json[] };
      expect(none.events).toHaveLength(0);
    });
  });

  describe("FHIR paths", () => {
    it("reads a Patient by national ID or portal id", async () => {
      for (const id of ["1000000001", patientUuid]) {
        const res = await gw.fhirPatient(get(`/fhir/Patient/${id}`, token), id);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
        expect(await json(res)).toMatchObject({
          resourceType: "Patient",
          id: "1000000001",
          identifier: [{ system: "https://platform.example/fhir/identifier/national-id", value: "1000000001" }, { value: patientUuid }],
          name: [{ family: "One", given: ["Test"] }],
          gender: "female",
          birthDate: "1985-03-14",
          telecom: [{ system: "phone", value: "+966512345678" }],
        });
      }
      const missing = await gw.fhirPatient(get("/fhir/Patient/1000000099", token), "1000000099");
      expect(missing.status).toBe(404);
      expect((await json(missing)).resourceType).toBe("OperationOutcome");
      const anon = await gw.fhirPatient(get("/fhir/Patient/1000000001", undefined), "1000000001");
      expect(anon.status).toBe(401);
      expect(anon.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await json(anon)).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "login", details: { coding: [{ code: "unauthenticated" }] } }] });
      const [entry] = await db.select().from(auditEvents).where(and(eq(auditEvents.action, "gateway.fhir.patient.read"), eq(auditEvents.outcome, "success")));
      expect(entry).toMatchObject({ actorLabel: "Claims assistant", targetId: patientUuid });
    });

    it("accepts a Claim (202 ClaimResponse queued) and answers problems with an OperationOutcome", async () => {
      const claim = buildClaim({ use: "claim", items: [{ code: "99213", price: 60 }] });
      const res = await gw.fhirClaim(post("/fhir/Claim", claim, token, { "content-type": "application/fhir+json" }));
      expect(res.status).toBe(202);
      expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
      const body = await json(res);
      expect(body).toMatchObject({ resourceType: "ClaimResponse", outcome: "queued", use: "claim" });
      const id = (body.identifier as { value: string }[])[0]!.value;
      expect(await getSubmission(db, id)).toMatchObject({ channel: "gateway", status: expect.any(String) });

      const bad = { ...claim, created: "yesterday" };
      const invalid = await gw.fhirClaim(post("/fhir/Claim", bad, token));
      // A wrong format is a malformed Claim: 400, as on the exchange API (one Claim validation, docs/decisions/031).
      expect(invalid.status).toBe(400);
      expect(await json(invalid)).toMatchObject({ resourceType: "OperationOutcome", issue: [{ expression: ["Claim.created"] }] });
      const notJson = await gw.fhirClaim(post("/fhir/Claim", "{", token));
      expect(notJson.status).toBe(400);
      expect((await json(notJson)).resourceType).toBe("OperationOutcome");
      const media = await gw.fhirClaim(post("/fhir/Claim", claim, token, { "content-type": "text/plain" }));
      expect(media.status).toBe(415);
    });
  });

  describe("the OpenAPI document (generated from zod)", () => {
    it("documents every agent task with its data schema, and every documented path has a route", async () => {
      const res = await gw.openApi(new Request("http://portal.test/query/openapi.json"));
      expect(res.status).toBe(200);
      const doc = (await res.json()) as OpenApiDoc & { paths: { "/query": { post: { requestBody: { content: Record<string, { schema: { oneOf: { title: string }[] } }> } } } } };
      const titles = doc.paths["/query"].post.requestBody.content["application/json"]!.schema.oneOf.map((b) => b.title).sort();
      expect(titles).toEqual(Object.entries(AGENT_TASKS).flatMap(([role, tasks]) => Object.keys(tasks).map((t) => `${role}.${t}`)).sort());
      for (const [apiPath, methods] of Object.entries(doc.paths)) {
        const file = path.join(ROOT, "app", ...apiPath.split("/").filter(Boolean).map((s) => s.replace(/^\{(.+)\}$/, "[$1]")), "route.ts");
        expect(fs.existsSync(file), file).toBe(true);
        for (const method of Object.keys(methods)) expect(fs.readFileSync(file, "utf8"), `${method} ${apiPath}`).toMatch(new RegExp(`export (const|(async )?function) ${method.toUpperCase()}\\b`));
      }
    });

    it("a served task answer and an accepted Claim parse with the documented schemas", async () => {
      const answer = await json(await q({ agent: "record", task: "lookup", data: { nationalId: "1000000001" } }));
      expect(GATEWAY_SCHEMAS.QueryAnswer.schema.safeParse(answer).success).toBe(true);
      const claim = buildClaim({ use: "claim", items: [{ code: "99213", price: 60 }] });
      const res = await gw.fhirClaim(post("/fhir/Claim", claim, token, { "content-type": "application/fhir+json" }));
      expect(res.status).toBe(202);
      const parsed = GATEWAY_SCHEMAS.ClaimResponse.schema.safeParse(await json(res));
      expect(parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe("");
    });
  });

  describe("malformed input never gives a 5xx", () => {
    const runs = { numRuns: Number(process.env.FUZZ_RUNS ?? 60) };
    const anyAgent = fc.constantFrom("claim", "ClaimLinc", "record", "RecordLinc", "authorization", "AuthLinc", "notification", "NotifyLinc", "nope", "", "__proto__");
    const anyTask = fc.constantFrom("submit", "status", "lookup", "summary", "request", "list", "acknowledge", "toString", "", "x");
    const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: "binary", maxLength: 30 }), fc.constantFrom(null, -1, 1e308, 1.5, "", [], {}, true));

    it("random JSON bodies", async () => {
      const documented = Object.keys((gatewayOpenApiDocument(config) as OpenApiDoc).paths["/query"]!.post!.responses);
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (body) => {
          const res = await q(body);
          expect(res.status).toBeLessThan(500);
          expect(documented).toContain(String(res.status));
          const answer = await json(res);
          expect(typeof answer.error).toBe("string");
          // The error body is what the OpenAPI document (generated from this schema) says.
          expect(GATEWAY_SCHEMAS.Error.schema.safeParse(answer).success).toBe(true);
        }),
        runs,
      );
    });

    it("known agents and tasks with random data of wrong types", async () => {
      await fc.assert(
        fc.asyncProperty(anyAgent, anyTask, fc.dictionary(fc.constantFrom("claim", "submissionId", "identifier", "nationalId", "patientId", "cursor", "limit", "kind", "mine", "upTo", "x"), value), async (agent, task, data) => {
          const res = await q({ agent, task, data });
          expect(res.status).toBeLessThan(500);
        }),
        runs,
      );
    });

    it("mutated Claims, wrong envelope types, huge strings and raw text", async () => {
      const base = buildClaim({ use: "claim", items: [{ code: "99213", price: 10 }] });
      const keys = Object.keys(base);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...keys), value, async (key, v) => {
          const res = await q({ agent: "claim", task: "submit", data: { claim: { ...base, [key]: v } } });
          expect(res.status).toBeLessThan(500);
          const fhir = await gw.fhirClaim(post("/fhir/Claim", { ...base, [key]: v }, token));
          expect(fhir.status).toBeLessThan(500);
        }),
        { numRuns: Math.ceil(runs.numRuns / 2) },
      );
      const huge = "x".repeat(200_000);
      for (const body of [
        { agent: huge, task: "list", data: {} },
        { agent: "record", task: huge, data: {} },
        { agent: "record", task: "lookup", data: { nationalId: huge } },
        { agent: "claim", task: "status", data: { identifier: huge } },
        { agent: 1, task: [], data: "x" },
        { agent: "claim", task: "status", data: [] },
        { agent: "record", task: "lookup", data: { nationalId: "\u0000" } },
      ]) {
        const res = await q(body);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      for (const raw of ["", "null", "[1]", "\"s\"", "{\"agent\":", "\uD800"]) {
        expect((await q(raw)).status).toBeLessThan(500);
      }
      const tooBig = await gw.query(post("/query", "{}", token, { "content-length": String(50 * 1024 * 1024) }));
      expect(tooBig.status).toBe(413);
      for (const id of ["", "..", "%00", "x".repeat(5000), "1000000001' or 1=1"]) {
        expect((await gw.fhirPatient(get("/fhir/Patient/x", token), id)).status).toBe(404);
      }
    });
  });
});

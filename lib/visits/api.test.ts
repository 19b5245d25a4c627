import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayToken } from "@/lib/api-access/credentials";
import { newOrgKey, registerOrg, signToken, testApi, testConfig } from "@/lib/provider-api/testing";
import { createGateway, parseGatewayConfig } from "@/lib/gateway";
import { findPatientByNationalId, listCoverages } from "@/lib/patients";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";

/*
 * The same visit list through the exchange API (organization JWT) and the gateway's record agent
 * (gateway token): bad items by number with the reason, good ones kept, unknown patients
 * registered on request, a run started; the status call answers the verdicts' state.
 */
const visits = [
  { nationalId: "1000000001", serviceDate: "2026-03-02", services: ["99213"] },
  { nationalId: "1234567890", serviceDate: "2026-03-02" }, // check digit
  { nationalId: "1048573628", serviceDate: "2026-03-02", insurer: "payer-nowhere" }, // unknown insurer
  { nationalId: "1234567897", serviceDate: "2026-03-02", givenName: "Sami", familyName: "Newpatient", birthDate: "1990-02-03", gender: "male" as const },
];

describe.each(testDatabases().map((d) => [d.name, d] as [string, TestDatabase]))("visit lists through the machine APIs on %s", (_name, target) => {
  let database: Awaited<ReturnType<TestDatabase["open"]>>;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("exchange API: POST /api/exchange/visits then GET its status", async () => {
    const api = testApi(database.db, undefined, testConfig({ allowSandboxTestIds: true }));
    const key = await newOrgKey("ES256");
    await registerOrg(database.db, "his", key);
    const res = await api.importVisits(
      new Request("https://portal.test/api/exchange/visits", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await signToken(key, "his")}` },
        body: JSON.stringify({ name: "HIS tomorrow", visits, register: true, run: "now" }),
      }),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { listId: string; accepted: number; rejected: number; registered: number; problems: { line: number; code: string; message: { en: string } }[]; run: { status: string; total: number } };
    expect(body).toMatchObject({ accepted: 2, rejected: 2, registered: 1, run: { status: "running", total: 2 } });
    expect(body.problems.map((p) => [p.line, p.code])).toEqual([
      [2, "national_id_check-digit"],
      [3, "insurer_unknown"],
    ]);
    expect(body.problems[0]!.message.en).toMatch(/check digit/);
    expect(res.headers.get("location")).toBe(`/api/exchange/visits/${body.listId}`);

    const status = await api.visitsStatus(new Request(`https://portal.test${res.headers.get("location")}`, { headers: { authorization: `Bearer ${await signToken(key, "his")}` } }), body.listId);
    expect(status.status).toBe(200);
    const list = (await status.json()) as { visits: { line: number; checked: boolean; verdict: string | null }[]; runs: { status: string; done: number }[] };
    expect(list.visits.map((v) => [v.line, v.checked, v.verdict])).toEqual([
      [1, false, null],
      [4, false, null],
    ]);
    expect(list.runs).toMatchObject([{ status: "running", done: 0 }]);

    // A body of the wrong shape is a 422 naming the field; no token is a 401.
    const bad = await api.importVisits(
      new Request("https://portal.test/api/exchange/visits", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${await signToken(key, "his")}` }, body: JSON.stringify({ visits: [{ nationalId: 1 }] }) }),
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("visits[0].nationalId");

    // An impossible date of service is that item's problem, like a CSV's bad row: the others stay.
    const february = await api.importVisits(
      new Request("https://portal.test/api/exchange/visits", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await signToken(key, "his")}` },
        body: JSON.stringify({ visits: [{ ...visits[0], serviceDate: "2026-02-30" }, visits[0]] }),
      }),
    );
    expect(february.status).toBe(201);
    const feb = (await february.json()) as { accepted: number; problems: { line: number; code: string }[] };
    expect(feb.accepted).toBe(1);
    expect(feb.problems.map((p) => [p.line, p.code])).toEqual([[1, "date_impossible"]]);
    // Elsewhere in the body an impossible date is still refused outright.
    const run = await api.importVisits(
      new Request("https://portal.test/api/exchange/visits", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await signToken(key, "his")}` },
        body: JSON.stringify({ visits: [visits[0]], run: "2026-02-30T20:00:00+03:00" }),
      }),
    );
    expect(run.status).toBe(400);
    expect(JSON.stringify(await run.json())).toContain("impossible_date");
  });

  it("exchange API: a new patient's coverage keeps the card's expiry; a bad expiry is refused in words (decision 126)", async () => {
    const api = testApi(database.db, undefined, testConfig({ allowSandboxTestIds: true }));
    const key = await newOrgKey("ES256");
    await registerOrg(database.db, "his-expiry", key);
    const card = { nationalId: "1234500013", serviceDate: "2026-03-02", insurer: "payer-rimal", givenName: "Noura", familyName: "Cardholder", birthDate: "1985-07-01", gender: "female" as const, memberId: "RML-EXP-1", coverageRef: "cov-exp-1234500013" };
    // A fresh token each call (a token is used once).
    const post = async (items: unknown[]) =>
      api.importVisits(new Request("https://portal.test/api/exchange/visits", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${await signToken(key, "his-expiry")}` }, body: JSON.stringify({ visits: items, register: true }) }));
    // Like every date of the body but an item's service date: a day that does not exist is refused outright, naming it.
    const bad = await post([{ ...card, coverageExpiresOn: "2026-02-30" }]);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("visits[0].coverageExpiresOn");
    // A real day outside the card's range is that item's problem, in words.
    const old = await post([{ ...card, coverageExpiresOn: "1999-12-31" }]);
    expect(old.status).toBe(201);
    expect(((await old.json()) as { problems: { line: number; field: string; code: string }[] }).problems).toMatchObject([{ line: 1, field: "coverageExpiresOn", code: "coverage_expiry_impossible" }]);
    const res = await post([{ ...card, coverageExpiresOn: "2027-06-30" }]);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ accepted: 1, registered: 1 });
    const patient = await findPatientByNationalId(database.db, "1234500013");
    expect((await listCoverages(database.db, patient!.id)).map((c) => [c.coverageRef, c.expiresOn])).toEqual([["cov-exp-1234500013", "2027-06-30"]]);
  });

  it("gateway: the record agent's visits and visitsStatus tasks", async () => {
    const config = parseGatewayConfig({ GATEWAY_AGENTS: "RecordLinc=record", PROVIDER_ORG_ID: "clinic-001", PLATFORM_ENV: "sandbox", GATEWAY_RATE_PER_MINUTE: "1000" });
    const gw = createGateway({ db: async () => database.db, config: () => config, warn: () => undefined });
    const { token } = await createGatewayToken(database.db, { name: "Scheduler" });
    const query = (body: unknown) =>
      gw.query(new Request("http://portal.test/query", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) }));
    const res = await query({ agent: "RecordLinc", task: "visits", data: { visits: visits.slice(0, 3) } });
    expect(res.status).toBe(201);
    const answer = (await res.json()) as { role: string; result: { listId: string; accepted: number; rejected: number; problems: { line: number }[]; run?: unknown } };
    expect(answer.role).toBe("record");
    expect(answer.result).toMatchObject({ accepted: 1, rejected: 2 });
    expect(answer.result.run).toBeUndefined();
    const february = await query({ agent: "RecordLinc", task: "visits", data: { visits: [{ ...visits[0], serviceDate: "2026-02-30" }, visits[0]] } });
    expect(february.status).toBe(201);
    expect(((await february.json()) as { result: { accepted: number; problems: { code: string }[] } }).result).toMatchObject({ accepted: 1, problems: [{ code: "date_impossible" }] });
    const status = await query({ agent: "RecordLinc", task: "visitsStatus", data: { listId: answer.result.listId } });
    expect(status.status).toBe(200);
    expect(((await status.json()) as { result: { visits: unknown[] } }).result.visits).toHaveLength(1);
    const unknown = await query({ agent: "RecordLinc", task: "visitsStatus", data: { listId: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown.status).toBe(404);
  });
});

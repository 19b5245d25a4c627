import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { coverages, insurers, patients, submissions } from "@/lib/db/schema";
import { startOutboxWorker } from "@/lib/submissions";
import { buildClaim, startTestSandbox, testClient, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { newOrgKey, postFhir, registerOrg, signToken, testApi, testConfig, type TestOrgKey } from "./testing";
import type { ProviderApi } from "./index";

/*
 * Decisions 114 and 115 on the provider API: a change of a decided authorization (202, the same
 * reference, related prior) and information sent unasked (200); each misfit a 422 naming the
 * element, another client's submission a 404, a version that cannot change a 409.
 */
describe("changing an authorization and sending evidence through /api/exchange", () => {
  const [target] = testDatabases();
  let database: Awaited<ReturnType<NonNullable<typeof target>["open"]>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let api: ProviderApi;
  let key: TestOrgKey;
  let other: TestOrgKey;

  beforeAll(async () => {
    database = await target!.open();
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    api = testApi(database.db, client, testConfig({}, sb.config.providerOrgId));
    [key, other] = await Promise.all([newOrgKey("RS256"), newOrgKey("RS256")]);
    await registerOrg(database.db, "changes-client", key);
    await registerOrg(database.db, "other-client", other);
    const patientId = randomUUID();
    await database.db.insert(insurers).values({ id: "payer-rimal", nameEn: "Rimal", nameAr: "رمال" }).onConflictDoNothing();
    await database.db.insert(patients).values({ id: patientId, nationalId: "1000000001", givenName: "T", familyName: "O", birthDate: "1985-03-14", gender: "female" });
    await database.db.insert(coverages).values({ id: randomUUID(), patientId, insurerId: "payer-rimal", memberId: "M", coverageRef: "cov-1000000001" });
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const token = () => signToken(key, "changes-client");
  const status = async (id: string) => (await database.db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, id)))[0]?.status;
  async function sendQueued(): Promise<void> {
    const worker = startOutboxWorker({ db: database.db, client, pollMs: 20, leaseMs: 30_000, maxAttempts: 3, backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 }, pollAfterMs: 60_000, log: () => {} });
    try {
      await waitFor(async () => (await database.db.select({ id: submissions.id }).from(submissions).where(eq(submissions.status, "queued"))).length === 0, 30_000, "submissions sent");
    } finally {
      await worker.stop();
    }
  }
  const claimOf = (use: "claim" | "preauthorization"): Record<string, unknown> => ({ ...buildClaim({ use, items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] }), provider: { reference: `Organization/${sb.config.providerOrgId}` }, identifier: [{ system: "urn:test", value: randomUUID() }] });
  async function submitted(use: "claim" | "preauthorization") {
    const body = claimOf(use);
    const res = await api.submitClaim(postFhir("/api/exchange/claims/submit", body, await token()));
    expect(res.status).toBe(202);
    const id = res.headers.get("location")!.split("/").at(-2)!;
    await sendQueued();
    await waitFor(async () => (["complete", "partial", "sent", "pended"].includes((await status(id)) ?? "") ? true : undefined), 30_000, "at the platform");
    return { id, body };
  }
  const expression = async (res: Response) => ((await res.json()) as { issue: { expression?: string[] }[] }).issue.flatMap((i) => i.expression ?? []);

  it("a change: 422 naming use, related or another reference; 202 keeping the reference and relating the version; then the old version is 409", async () => {
    const { id, body } = await submitted("preauthorization");
    await waitFor(async () => ((await status(id)) === "complete" ? true : undefined), 30_000, "approved");
    const change = (b: unknown, t: string) => api.changeAuthorization(postFhir(`/api/exchange/claims/${id}/change`, b, t), id);

    const asClaim = await change({ ...body, use: "claim", identifier: [{ system: "urn:test", value: randomUUID() }] }, await token());
    expect(asClaim.status).toBe(422);
    expect(await expression(asClaim)).toContain("Claim.use");
    const related = await change({ ...body, related: [{ claim: { reference: "Claim/x" } }], identifier: [{ system: "urn:test", value: randomUUID() }] }, await token());
    expect(related.status).toBe(422);
    expect(await expression(related)).toContain("Claim.related");
    const otherRef = await change({ ...body, insurance: [{ ...(body.insurance as object[])[0], preAuthRef: ["PA-NOT-IT"] }], identifier: [{ system: "urn:test", value: randomUUID() }] }, await token());
    expect(otherRef.status).toBe(422);
    expect(await expression(otherRef)).toContain("Claim.insurance[0].preAuthRef");
    // Another organization's authorization does not exist for it.
    expect((await change({ ...body }, await signToken(other, "other-client"))).status).toBe(404);

    const accepted = await change({ ...body, identifier: [{ system: "urn:test", value: randomUUID() }], item: [...(body.item as object[]), { ...(body.item as object[])[0], sequence: 2 }] }, await token());
    expect(accepted.status).toBe(202);
    const newId = accepted.headers.get("location")!.split("/").at(-2)!;
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, newId));
    const [first] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row!.replacesId).toBe(id);
    const claim = row!.claim as { related: { claim: { identifier: { value: string } }; relationship: { coding: { code: string }[] } }[]; insurance: { preAuthRef: string[] }[] };
    expect(claim.related[0]!.claim.identifier.value).toBe(first!.identifierValue);
    expect(claim.related[0]!.relationship.coding[0]!.code).toBe("prior");
    expect(claim.insurance[0]!.preAuthRef).toEqual([first!.response!.preAuthRef]);
    // While the change is with the payer (and once it is approved) the earlier version cannot change again.
    expect((await change({ ...body, identifier: [{ system: "urn:test", value: randomUUID() }] }, await token())).status).toBe(409);
    await sendQueued();
    await waitFor(async () => ((await status(newId)) === "complete" ? true : undefined), 30_000, "change approved");
    expect((await database.db.select().from(submissions).where(eq(submissions.id, newId)))[0]!.response!.preAuthRef).toBe(first!.response!.preAuthRef);
    expect((await change({ ...body, identifier: [{ system: "urn:test", value: randomUUID() }] }, await token())).status).toBe(409);
  }, 180_000);

  it("evidence: 422 naming the parameter; 409 for a claim the payer does not hold; 200 with the Communication sent", async () => {
    const { id } = await submitted("claim");
    const send = async (b: unknown) => api.sendEvidence(postFhir(`/api/exchange/claims/${id}/evidence`, b, await token()), id);
    const unknownName = await send({ resourceType: "Parameters", parameter: [{ name: "note", valueString: "x" }] });
    expect(unknownName.status).toBe(422);
    expect(await expression(unknownName)).toContain("Parameters.parameter[0].name");
    const badLine = await send({ resourceType: "Parameters", parameter: [{ name: "text", valueString: "x" }, { name: "sequence", valuePositiveInt: 0 }] });
    expect(badLine.status).toBe(422);
    expect(await expression(badLine)).toContain("Parameters.parameter[1].valuePositiveInt");
    const notALine = await send({ resourceType: "Parameters", parameter: [{ name: "text", valueString: "x" }, { name: "sequence", valuePositiveInt: 7 }] });
    expect(notALine.status).toBe(422);
    const notAFile = await send({ resourceType: "Parameters", parameter: [{ name: "attachment", valueAttachment: { data: Buffer.from("plain text").toString("base64"), title: "a.txt" } }] });
    expect(notAFile.status).toBe(422);
    expect(await expression(notAFile)).toContain("Parameters.parameter[0].valueAttachment");
    const empty = await send({ resourceType: "Parameters", parameter: [] });
    expect(empty.status).toBe(422);

    const ok = await send({ resourceType: "Parameters", parameter: [{ name: "text", valueString: "The report is attached." }, { name: "sequence", valuePositiveInt: 1 }] });
    expect(ok.status).toBe(200);
    const answer = (await ok.json()) as { parameter: { name: string; valueString?: string; valueCode?: string }[] };
    expect(answer.parameter.map((p) => p.name)).toEqual(["evidence", "communication", "status"]);

    // A claim only queued (not at the payer): 409, nothing sent.
    const queued = await api.submitClaim(postFhir("/api/exchange/claims/submit", claimOf("claim"), await token()));
    const queuedId = queued.headers.get("location")!.split("/").at(-2)!;
    const early = await api.sendEvidence(postFhir(`/api/exchange/claims/${queuedId}/evidence`, { resourceType: "Parameters", parameter: [{ name: "text", valueString: "x" }] }, await token()), queuedId);
    expect(early.status).toBe(409);
  }, 180_000);
});

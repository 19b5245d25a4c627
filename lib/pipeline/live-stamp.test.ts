import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/testing/databases";
import { liveStamp, liveStampQuery } from "./live-stamp";
import { createDraft, queue } from "@/lib/submissions";
import { emitGeneralLive } from "./general-live";
import { buildClaim } from "./testing/harness";

describe.each(testDatabases())("live stamps on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("is the newest event a page depends on, among those the user's roles may see", async () => {
    const db = database.db;
    const status = { kinds: ["submission.status"] };
    const claim = await createDraft({ db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }] }) });
    const auth = await createDraft({ db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }] }) });
    const claimStamp = await liveStamp(db, ["billing"], { ...status, submissionId: claim.id });
    const authStamp = await liveStamp(db, ["front_desk"], { ...status, submissionId: auth.id });
    expect(claimStamp).toBeGreaterThan(0);
    expect(authStamp).toBeGreaterThan(claimStamp);
    // A claim's events are not the front desk's: their stamp of it does not exist.
    expect(await liveStamp(db, ["front_desk"], { ...status, submissionId: claim.id })).toBe(0);
    // Another submission's change leaves this page's stamp where it was; its own change moves it.
    await queue({ db }, auth.id);
    expect(await liveStamp(db, ["billing"], { ...status, submissionId: claim.id })).toBe(claimStamp);
    await queue({ db }, claim.id);
    const moved = await liveStamp(db, ["billing"], { ...status, submissionId: claim.id });
    expect(moved).toBeGreaterThan(authStamp);
    // By kind of submission (the work queue: claims only) and by event kind.
    expect(await liveStamp(db, ["billing", "front_desk"], { ...status, submissionKind: "claim" })).toBe(moved);
    expect(await liveStamp(db, ["billing"], { kinds: ["payments.remittance"] })).toBe(0);
    await emitGeneralLive(db, "payments.remittance", ["billing", "manager"], { remittances: 1 });
    const paid = await liveStamp(db, ["manager"], { kinds: ["payments.remittance"] });
    expect(paid).toBeGreaterThan(moved);
    expect(await liveStamp(db, ["front_desk"], { kinds: ["payments.remittance"] })).toBe(0);
    // A malformed id (a mistyped URL) has no events rather than a database error.
    expect(await liveStamp(db, ["billing"], { ...status, submissionId: "not-a-uuid" })).toBe(0);
  });

  it("accepts only event-kind names and submission ids as input", () => {
    expect(liveStampQuery.safeParse({ kinds: ["submission.status"] }).success).toBe(true);
    expect(liveStampQuery.safeParse({ kinds: [] }).success).toBe(false);
    expect(liveStampQuery.safeParse({ kinds: ["x'; drop table"] }).success).toBe(false);
    expect(liveStampQuery.safeParse({ kinds: ["submission.status"], submissionId: "42" }).success).toBe(false);
  });
});

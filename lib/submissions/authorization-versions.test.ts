import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { demoFormPatient, insertSubmissions, patchSubmission, professionalCare } from "@/lib/submissions/testing";
import { testDatabases } from "@/lib/testing/databases";
import { authorizationVersions, changeableVersion, currentVersionOf } from "./authorization-versions";
import { draftAuthorizationChange, saveDraft, submitForm } from "./form-service";

const caller: Caller = { actor: { kind: "user", id: "staff-1", email: "frontdesk@clinic.example", roles: ["front_desk"] }, userId: "staff-1" };
const today = new Date().toISOString().slice(0, 10);
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 8, minutes));

describe("the current version (docs/decisions/114)", () => {
  it("is the newest approved version, else the newest", () => {
    const v = (status: "complete" | "partial" | "denied" | "queued", minute: number) => ({ status, createdAt: at(minute) });
    expect(currentVersionOf([v("complete", 1), v("partial", 2), v("denied", 3)])).toEqual(v("partial", 2));
    expect(currentVersionOf([v("denied", 1), v("queued", 2)])).toEqual(v("queued", 2));
    expect(currentVersionOf([])).toBeUndefined();
  });
});

describe.each(testDatabases())("authorization versions on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let patientId: string;
  let coverageId: string;
  beforeAll(async () => {
    database = await target.open();
    ({ patientId, coverageId } = await demoFormPatient(database.db));
  }, 120_000);
  afterAll(async () => database?.dispose());
  const deps = () => ({ db: database.db, providerOrgId: "clinic-001" });

  it("follows the chain both ways from any version, newest first, drafts left out, the current one marked", async () => {
    const base = { kind: "preauthorization" as const, patientNationalId: "1000000001", claim: {}, form: {} };
    const [v1] = await insertSubmissions(database.db, { ...base, status: "complete", createdAt: at(1), response: { preAuthRef: "PA-CHAIN" } });
    const [v2] = await insertSubmissions(database.db, { ...base, status: "partial", createdAt: at(2), replacesId: v1!.id, response: { preAuthRef: "PA-CHAIN" } });
    const [v3] = await insertSubmissions(database.db, { ...base, status: "denied", createdAt: at(3), replacesId: v2!.id });
    await insertSubmissions(database.db, { ...base, status: "draft", createdAt: at(4), replacesId: v3!.id });
    for (const from of [v1!, v2!, v3!]) {
      const chain = await authorizationVersions(database.db, from.id);
      expect(chain.map((v) => v.id)).toEqual([v3!.id, v2!.id, v1!.id]);
      expect(chain.filter((v) => v.current).map((v) => v.id)).toEqual([v2!.id]);
      expect(chain[1]!.preAuthRef).toBe("PA-CHAIN");
    }
    const chain = await authorizationVersions(database.db, v1!.id);
    // Only the current approved version may change; an overridden one may not.
    // A refused change overrides nothing: the approved version stays current and may change again.
    expect(changeableVersion(chain, v2!.id)).toBe(true);
    expect(changeableVersion(chain, v3!.id)).toBe(false);
    expect(changeableVersion(chain, v1!.id)).toBe(false);
    expect(await authorizationVersions(database.db, "not-a-uuid")).toEqual([]);
    expect(await authorizationVersions(database.db, "00000000-0000-4000-8000-000000000000")).toEqual([]);
  });

  it("a change is a draft with all the services, the same preAuthRef, related to the version it changes; one open change at a time", async () => {
    const values = {
      use: "preauthorization",
      patientId,
      coverageId,
      ...(await professionalCare(database.db)),
      diagnoses: ["M54.5"],
      items: [
        { code: "72148", servicedDate: today, quantity: "1", unitPrice: "2000" },
        { code: "99213", servicedDate: today, quantity: "1", unitPrice: "250" },
      ],
    };
    const saved = await saveDraft(deps(), caller, values);
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    // A draft is no version yet; a request still with the payer cannot be changed.
    expect(await draftAuthorizationChange(deps(), caller, saved.id)).toEqual({ ok: false, error: "not_found" });
    await patchSubmission(database.db, saved.id, { status: "pended" });
    expect(await draftAuthorizationChange(deps(), caller, saved.id)).toEqual({ ok: false, error: "not_changeable" });
    await patchSubmission(database.db, saved.id, { status: "partial", response: { preAuthRef: "PA-77" }, identifierValue: "AUTH-77", decidedAt: new Date() });

    const change = await draftAuthorizationChange(deps(), caller, saved.id);
    if (!change.ok) throw new Error(JSON.stringify(change));
    expect(change.reused).toBe(false);
    const again = await draftAuthorizationChange(deps(), caller, saved.id);
    expect(again).toEqual({ ok: true, id: change.id, reused: true });
    const { getSubmission } = await import("./lifecycle");
    const draft = await getSubmission(database.db, change.id);
    expect(draft).toMatchObject({ status: "draft", kind: "preauthorization", replacesId: saved.id });
    expect((draft!.form as { preAuthRef?: string }).preAuthRef).toBe("PA-77");
    expect(((draft!.form as { items: unknown[] }).items).length).toBe(2);
    expect((draft!.claim as { insurance?: { preAuthRef?: string[] }[] }).insurance?.[0]?.preAuthRef).toEqual(["PA-77"]);

    // Sent (with the payer): the earlier version waits; approved: the change is current, the earlier one overridden.
    await patchSubmission(database.db, change.id, { status: "queued", createdAt: new Date(Date.now() + 1000) });
    expect(await draftAuthorizationChange(deps(), caller, saved.id)).toEqual({ ok: false, error: "not_changeable" });
    await patchSubmission(database.db, change.id, { status: "complete", response: { preAuthRef: "PA-77" } });
    const chain = await authorizationVersions(database.db, saved.id);
    expect(chain.map((v) => [v.id, v.current])).toEqual([[change.id, true], [saved.id, false]]);
    expect(changeableVersion(chain, change.id)).toBe(true);
    expect(await draftAuthorizationChange(deps(), caller, saved.id)).toEqual({ ok: false, error: "not_changeable" });
    expect(await draftAuthorizationChange(deps(), caller, "nope")).toEqual({ ok: false, error: "not_found" });
  });

  it("a change marks the services already claimed as provided; sent, they go with servicedPeriod.start and the justification as supporting information (guide 7.3.1, Table 37)", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const values = {
      use: "preauthorization",
      patientId,
      coverageId,
      ...(await professionalCare(database.db)),
      diagnoses: ["M54.5"],
      items: [
        { code: "72148", servicedDate: yesterday, quantity: "1", unitPrice: "2000" },
        { code: "99213", servicedDate: yesterday, quantity: "1", unitPrice: "250" },
      ],
    };
    const saved = await saveDraft(deps(), caller, values);
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    await patchSubmission(database.db, saved.id, { status: "complete", response: { preAuthRef: "PA-88" }, identifierValue: "AUTH-88", decidedAt: new Date() });
    // A claim of this authorization consumed the visit (99213), not the scan.
    const line = (code: string) => ({ sequence: 1, productOrService: { coding: [{ code }] }, quantity: { value: 1 }, unitPrice: { value: 250 } });
    await insertSubmissions(database.db, { kind: "claim", status: "complete", patientNationalId: "1000000001", authorizationId: saved.id, claim: { item: [line("99213")] }, form: {} });

    const change = await draftAuthorizationChange(deps(), caller, saved.id);
    if (!change.ok) throw new Error(JSON.stringify(change));
    const { getSubmission } = await import("./lifecycle");
    const draft = await getSubmission(database.db, change.id);
    const form = draft!.form as { items: { code: string; performed?: boolean }[] };
    expect(form.items.map((i) => [i.code, i.performed])).toEqual([["72148", false], ["99213", true]]);

    const sent = await submitForm(deps(), caller, { ...draft!.form, changeJustification: "The scan was refused for lack of notes: the attached report shows the radiculopathy." }, change.id, { scrub: { acknowledgeWarnings: true } });
    if (!sent.ok) throw new Error(JSON.stringify(sent));
    const row = await getSubmission(database.db, change.id);
    const claim = row!.claim as { item: { servicedDate?: string; servicedPeriod?: { start?: string } }[]; supportingInfo?: { category: { coding: { code: string }[] }; valueString?: string }[] };
    expect(claim.item[0]).toMatchObject({ servicedDate: yesterday });
    expect(claim.item[0]!.servicedPeriod).toBeUndefined();
    expect(claim.item[1]).toMatchObject({ servicedPeriod: { start: yesterday } });
    expect(claim.item[1]!.servicedDate).toBeUndefined();
    expect(claim.supportingInfo?.find((i) => i.category.coding[0]!.code === "info")?.valueString).toMatch(/radiculopathy/);
  });
});

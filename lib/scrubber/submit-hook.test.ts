import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { seedDemoContracts } from "@/lib/contracts";
import { auditEvents, submissionEvents, submissions } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { submitApiClaim } from "@/lib/submissions";
import { submitForm } from "@/lib/submissions";
import { demoFormPatient, professionalCare } from "@/lib/submissions/testing";
import { testDatabases } from "@/lib/testing/databases";

/*
 * The scrubber at the one place every channel passes before queueing (docs/decisions/090): a
 * blocked form keeps its draft and queues nothing; warnings need "Send anyway"; billing may
 * override errors with a reason, audited; front desk may not; the exchange API answers 422 with
 * the findings and stores nothing.
 */
const user = (role: string): Caller => ({ actor: { kind: "user", id: `staff-${role}`, email: `${role}@clinic.example`, roles: [role] }, userId: undefined });
const billing = user("billing");
const frontDesk = user("front_desk");
const day = new Date().toISOString().slice(0, 10);

describe.each(testDatabases())("scrubber before queueing on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let patientId: string;
  let coverageId: string;
  let care: Awaited<ReturnType<typeof professionalCare>>;
  beforeAll(async () => {
    database = await target.open();
    ({ patientId, coverageId } = await demoFormPatient(database.db));
    care = await professionalCare(database.db);
    await seedDemoContracts(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });
  const deps = () => ({ db: database.db, providerOrgId: "org-1" });
  const claim = (items: { code: string; unitPrice: string }[]) => ({
    use: "claim",
    patientId,
    coverageId,
    ...care,
    diagnoses: ["M54.5"],
    procedures: [],
    items: items.map((i) => ({ ...i, servicedDate: day, quantity: "1" })),
    attachmentIds: [],
  });
  const audits = async (action: string) => database.db.select().from(auditEvents).where(eq(auditEvents.action, action));

  it("blocks a claim whose MRI has no authorization: nothing queued, the draft kept, the fix given", async () => {
    const result = await submitForm(deps(), billing, claim([{ code: "72148", unitPrice: "2000" }]));
    expect(result).toMatchObject({ ok: false, error: "scrub", canOverride: true });
    if (result.ok || result.error !== "scrub") return;
    expect(result.findings.map((f) => [f.rule, f.family, f.code, f.element])).toEqual([["authorization-missing", "AD", "AD-P-1", "Claim.item[1].productOrService"]]);
    expect(result.findings[0]!.fix.ar).toMatch(/[\u0600-\u06FF]/);
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, result.id));
    expect(row?.status).toBe("draft");
    expect((await audits("claim.scrub_blocked")).some((a) => a.targetId === result.id)).toBe(true);
  });

  it("front desk cannot override; billing overrides with a reason, audited and on the timeline", async () => {
    const refused = await submitForm(deps(), frontDesk, { ...claim([{ code: "72148", unitPrice: "2000" }]), use: "claim" }, undefined, { scrub: { overrideReason: "urgent" } });
    expect(refused).toMatchObject({ ok: false, error: "scrub", canOverride: false });
    const sent = await submitForm(deps(), billing, claim([{ code: "70553", unitPrice: "2500" }]), undefined, { scrub: { overrideReason: "Payer confirmed by phone, reference T-1" } });
    expect(sent).toMatchObject({ ok: true, status: "queued" });
    if (!sent.ok) return;
    const [override] = (await audits("claim.scrub_override")).filter((a) => a.targetId === sent.id);
    expect(override?.details).toMatchObject({ reason: "Payer confirmed by phone, reference T-1", errors: [{ rule: "authorization-missing", code: "AD-P-1", sequence: 1 }] });
    const [queued] = await database.db.select().from(submissionEvents).where(and(eq(submissionEvents.submissionId, sent.id), eq(submissionEvents.toStatus, "queued")));
    expect(queued?.detail).toMatchObject({ scrub: { override: "Payer confirmed by phone, reference T-1" } });
  });

  it("a price off the contract is a warning: asked first, sent when the sender says so", async () => {
    const asked = await submitForm(deps(), billing, claim([{ code: "99213", unitPrice: "260" }]));
    expect(asked).toMatchObject({ ok: false, error: "scrub" });
    if (asked.ok || asked.error !== "scrub") return;
    expect(asked.findings.map((f) => [f.rule, f.severity, f.message.en])).toEqual([["contract-price-differs", "warning", `Line 1 (99213) is priced 260.00; the contract of ${day} says 250.00.`]]);
    const sent = await submitForm(deps(), billing, claim([{ code: "99213", unitPrice: "260" }]), asked.id, { scrub: { acknowledgeWarnings: true } });
    expect(sent).toMatchObject({ ok: true, id: asked.id, status: "queued" });
    // The same service on the same day again: a duplicate warning.
    const again = await submitForm(deps(), billing, claim([{ code: "99213", unitPrice: "250" }]));
    expect(again.ok === false && again.error === "scrub" && again.findings.map((f) => f.rule)).toEqual(["duplicate-service"]);
  });

  it("sends each line's patient share and VAT in the exchange's extensions (15 % for a resident)", async () => {
    const resident = await demoFormPatient(database.db, "2087654311");
    const sent = await submitForm(deps(), billing, { ...claim([{ code: "99214", unitPrice: "350" }]), ...resident });
    expect(sent).toMatchObject({ ok: true });
    if (!sent.ok) return;
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, sent.id));
    const item = (row!.claim.item as { extension?: { url: string; valueMoney?: { value: number } }[] }[])[0]!;
    // The line's money extensions by name (the line carries others too, such as its package flag).
    const money = Object.fromEntries((item.extension ?? []).filter((e) => e.valueMoney).map((e) => [e.url.split("/").pop(), e.valueMoney!.value]));
    expect(money).toMatchObject({ "extension-patient-share": 0, "extension-tax": 52.5 });
  });

  it("the exchange API answers 422 with the findings and stores nothing", async () => {
    const before = (await database.db.select().from(submissions)).length;
    const body = {
      resourceType: "Claim",
      status: "active",
      type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
      use: "claim",
      patient: { reference: "Patient/1000000001" },
      created: new Date().toISOString(),
      insurer: { reference: "Organization/payer-rimal" },
      provider: { reference: "Organization/org-1" },
      priority: { coding: [{ code: "normal" }] },
      identifier: [{ system: "urn:test:caller", value: "api-scrub-1" }],
      insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
      diagnosis: [{ sequence: 1, diagnosisCodeableConcept: { coding: [{ system: "http://hl7.org/fhir/sid/icd-10-am", code: "M54.5" }] } }],
      item: [{ sequence: 1, productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "47562" }] }, servicedDate: day, quantity: { value: 1 }, unitPrice: { value: 12000, currency: "SAR" }, net: { value: 12000, currency: "SAR" } }],
      total: { value: 12000, currency: "SAR" },
    };
    const error = await submitApiClaim({ db: database.db, now: new Date(), channel: "exchange-api", createdBy: "org:test", audit: { actor: { kind: "api", id: "test", name: "Test client" }, action: "exchange.claim.submit" } }, body, {
      providerOrgId: "org-1",
      allowSandboxTestIds: true,
      prefix: "data.claim",
      requireIdentifier: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, reason: "scrubber" });
    expect((error as AppError).fields[0]!.message).toMatch(/^AD-P-1 \(AD\): Line 1 \(47562\) needs a prior authorization/);
    expect((await database.db.select().from(submissions)).length).toBe(before);
  });
});

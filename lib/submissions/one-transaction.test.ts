import { and, count, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDemoCatalogue } from "@/lib/terminology";
import { storeAttachment } from "@/lib/attachments";
import { tinyPdf } from "@/lib/attachments/testing/fixtures";
import type { Db } from "@/lib/db";
import { attachments, auditEvents, eligibilityChecks, submissionEvents, submissions } from "@/lib/db/schema";
import { demoFormPatient } from "@/lib/submissions/testing";
import { testDatabases } from "@/lib/testing/databases";
import type { Caller } from "@/lib/audit";
import { saveDraft, submitForm } from "./form-service";
import { professionalCare } from "./testing";

/*
 * Save, submit and resubmit are each ONE transaction (docs/decisions/062): the draft, its form,
 * its attachments, the queueing and the audit entry commit together or not at all. The submit
 * asks the exchange nothing — a patient never checked is checked by the outbox before sending
 * (docs/decisions/124) — and a submit the scrubber stops is the same one transaction: the draft
 * kept, one audit entry, nothing queued.
 */
const caller: Caller = { actor: { kind: "user", id: "staff-1", email: "frontdesk@clinic.example", roles: ["front_desk"] }, userId: "staff-1" };
const today = new Date().toISOString().slice(0, 10);

/** The database, counting what reaches it outside a transaction: transactions and bare writes. */
function counting(db: Db) {
  const seen = { transactions: 0, bareWrites: 0 };
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      if (key === "transaction") return (...args: unknown[]) => (seen.transactions++, value.apply(target, args));
      if (key === "insert" || key === "update" || key === "delete" || key === "execute") return (...args: unknown[]) => (seen.bareWrites++, value.apply(target, args));
      return value.bind(target);
    },
  });
  return { db: proxy, seen };
}

describe.each(testDatabases())("one transaction per save / submit / resubmit on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let patientId: string;
  let coverageId: string;

  beforeAll(async () => {
    database = await target.open();
    ({ patientId, coverageId } = await demoFormPatient(database.db));
    // The demo code catalogue loads once per database, before any form (docs/decisions/086).
    await ensureDemoCatalogue(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  let care: Awaited<ReturnType<typeof professionalCare>>;
  beforeAll(async () => {
    care = await professionalCare(database.db);
  });
  const form = (attachmentIds: string[] = []) => ({
    use: "preauthorization",
    patientId,
    coverageId,
    ...care,
    diagnoses: ["M54.5"],
    procedures: ["72148"],
    items: [{ code: "72148", servicedDate: today, quantity: "1", unitPrice: "2000" }],
    attachmentIds,
  });
  const upload = async () => {
    const stored = await storeAttachment(database.db, { bytes: tinyPdf("request"), fileName: "request.pdf", uploadedBy: caller.userId });
    if (!stored.ok) throw new Error("upload refused");
    return stored.attachment.id;
  };
  const rows = async () => Number((await database.db.select({ n: count() }).from(submissions))[0]!.n);

  it("a new submit, a saved draft, its re-save and its submit are one transaction each, with no write outside it", async () => {
    const counted = counting(database.db);
    const deps = { db: counted.db, providerOrgId: "org-1" };

    const direct = await submitForm(deps, caller, form([await upload()]));
    expect(direct).toMatchObject({ ok: true, status: "queued" });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });

    counted.seen.transactions = 0;
    const draft = await saveDraft(deps, caller, form());
    expect(draft).toMatchObject({ ok: true, status: "draft" });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });

    counted.seen.transactions = 0;
    if (!draft.ok) return;
    expect(await saveDraft(deps, caller, form([await upload()]), draft.id)).toMatchObject({ ok: true, id: draft.id });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });

    counted.seen.transactions = 0;
    expect(await submitForm(deps, caller, form(), draft.id)).toMatchObject({ ok: true, id: draft.id, status: "queued" });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });
  });

  it("a failure after the draft, form and attachments are written (while queueing) leaves nothing behind", async () => {
    // The fault is real SQL: queueing writes the timeline entry draft → queued, and this refuses it.
    await database.db.execute(sql`create function cx_test_refuse_queue() returns trigger language plpgsql as $$
      begin if new.to_status = 'queued' then raise exception 'injected failure while queueing'; end if; return new; end $$`);
    await database.db.execute(sql`create trigger cx_test_refuse_queue before insert on submission_events for each row execute function cx_test_refuse_queue()`);
    try {
      const attachmentId = await upload();
      const before = await rows();
      const audits = Number((await database.db.select({ n: count() }).from(auditEvents))[0]!.n);
      await expect(submitForm({ db: database.db, providerOrgId: "org-1" }, caller, form([attachmentId]))).rejects.toThrow(/submission_events/);
      expect(await rows()).toBe(before);
      expect(Number((await database.db.select({ n: count() }).from(auditEvents))[0]!.n)).toBe(audits);
      const [file] = await database.db.select().from(attachments).where(eq(attachments.id, attachmentId));
      expect(file?.submissionId).toBeNull();

      // An existing draft keeps its saved form and attachments when its submit fails.
      const draft = await saveDraft({ db: database.db, providerOrgId: "org-1" }, caller, { ...form(), diagnoses: ["M54.4"] });
      if (!draft.ok) throw new Error("draft refused");
      await expect(submitForm({ db: database.db, providerOrgId: "org-1" }, caller, form([attachmentId]), draft.id)).rejects.toThrow(/submission_events/);
      const [kept] = await database.db.select().from(submissions).where(eq(submissions.id, draft.id));
      expect(kept?.status).toBe("draft");
      expect((kept?.form as { diagnoses?: string[] }).diagnoses).toEqual(["M54.4"]);
      expect(await database.db.select().from(attachments).where(and(eq(attachments.id, attachmentId), isNull(attachments.submissionId)))).toHaveLength(1);
      expect(await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, draft.id))).toHaveLength(1);
    } finally {
      await database.db.execute(sql`drop trigger cx_test_refuse_queue on submission_events`);
      await database.db.execute(sql`drop function cx_test_refuse_queue()`);
    }
  });
  const auditsOf = async (id: string) => (await database.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.targetId, id))).map((a) => a.action);
  const eligibilityRows = async () => Number((await database.db.select({ n: count() }).from(eligibilityChecks))[0]!.n);
  /** A claim of today's 72148: the second one is a duplicate service (a warning that asks "Send anyway"). */
  const claimForm = (attachmentIds: string[] = []) => ({ ...form(attachmentIds), use: "claim", procedures: [] });

  it("the eligibility path: a patient never checked is submitted in one transaction, with no platform call and no eligibility row written", async () => {
    expect(await database.db.select().from(eligibilityChecks)).toHaveLength(0);
    const counted = counting(database.db);
    const sent = await submitForm({ db: counted.db, providerOrgId: "org-1" }, caller, claimForm());
    expect(sent).toMatchObject({ ok: true, status: "queued" });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });
    expect(await eligibilityRows()).toBe(0);
    if (!sent.ok) return;
    expect(await auditsOf(sent.id)).toEqual(["claim.submit"]);
  });

  it("the scrubber-blocked path: one transaction, the draft kept with its form and files, one audit entry, nothing queued", async () => {
    const counted = counting(database.db);
    const deps = { db: counted.db, providerOrgId: "org-1" };
    const attachmentId = await upload();
    const blocked = await submitForm(deps, caller, claimForm([attachmentId]));
    expect(blocked).toMatchObject({ ok: false, error: "scrub" });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });
    if (blocked.ok || blocked.error !== "scrub") return;
    expect(blocked.findings.map((f) => f.rule)).toContain("duplicate-service");
    const [kept] = await database.db.select().from(submissions).where(eq(submissions.id, blocked.id));
    expect(kept).toMatchObject({ status: "draft", kind: "claim" });
    expect((kept?.form as { items?: unknown[] }).items).toHaveLength(1);
    expect(await database.db.select().from(attachments).where(and(eq(attachments.id, attachmentId), eq(attachments.submissionId, blocked.id)))).toHaveLength(1);
    expect((await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, blocked.id))).map((e) => e.toStatus)).toEqual(["draft"]);
    expect(await auditsOf(blocked.id)).toEqual(["claim.scrub_blocked"]);

    // Blocked again from the kept draft: the same draft, one more transaction, one more audit entry.
    counted.seen.transactions = 0;
    expect(await submitForm(deps, caller, { ...claimForm(), items: [{ code: "72148", servicedDate: today, quantity: "1", unitPrice: "2100" }] }, blocked.id)).toMatchObject({ ok: false, error: "scrub", id: blocked.id });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });
    expect(await auditsOf(blocked.id)).toEqual(["claim.scrub_blocked", "claim.scrub_blocked"]);
    const [edited] = await database.db.select().from(submissions).where(eq(submissions.id, blocked.id));
    expect((edited?.form as { items?: { unitPrice: string }[] }).items?.[0]?.unitPrice).toBe("2100");

    // "Send anyway": the kept draft is queued in one transaction.
    counted.seen.transactions = 0;
    expect(await submitForm(deps, caller, claimForm(), blocked.id, { scrub: { acknowledgeWarnings: true } })).toMatchObject({ ok: true, id: blocked.id, status: "queued" });
    expect(counted.seen).toEqual({ transactions: 1, bareWrites: 0 });
  });

  it("a failure while recording the blocked submit rolls everything back: no draft, no audit entry, the file still unlinked", async () => {
    await database.db.execute(sql`create function cx_test_refuse_blocked() returns trigger language plpgsql as $$
      begin if new.action = 'claim.scrub_blocked' then raise exception 'injected failure while auditing'; end if; return new; end $$`);
    await database.db.execute(sql`create trigger cx_test_refuse_blocked before insert on audit_events for each row execute function cx_test_refuse_blocked()`);
    try {
      const attachmentId = await upload();
      const before = await rows();
      const audits = Number((await database.db.select({ n: count() }).from(auditEvents))[0]!.n);
      await expect(submitForm({ db: database.db, providerOrgId: "org-1" }, caller, claimForm([attachmentId]))).rejects.toThrow(/audit/);
      expect(await rows()).toBe(before);
      expect(Number((await database.db.select({ n: count() }).from(auditEvents))[0]!.n)).toBe(audits);
      const [file] = await database.db.select().from(attachments).where(eq(attachments.id, attachmentId));
      expect(file?.submissionId).toBeNull();
    } finally {
      await database.db.execute(sql`drop trigger cx_test_refuse_blocked on audit_events`);
      await database.db.execute(sql`drop function cx_test_refuse_blocked()`);
    }
  });
});

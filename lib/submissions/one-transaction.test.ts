import { and, count, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDemoCatalogue } from "@/lib/terminology";
import { storeAttachment } from "@/lib/attachments";
import { tinyPdf } from "@/lib/attachments/testing/fixtures";
import type { Db } from "@/lib/db";
import { attachments, auditEvents, submissionEvents, submissions } from "@/lib/db/schema";
import { demoFormPatient } from "@/lib/submissions/testing";
import { testDatabases } from "@/lib/testing/databases";
import type { Caller } from "@/lib/audit";
import { saveDraft, submitForm } from "./form-service";
import { professionalCare } from "./testing";

/*
 * Save, submit and resubmit are each ONE transaction (docs/decisions/062): the draft, its form,
 * its attachments, the queueing and the audit entry commit together or not at all.
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
});

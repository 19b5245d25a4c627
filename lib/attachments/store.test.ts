import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachments } from "@/lib/db/schema";
import { createDraft } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { attachableIds, deleteOrphans, getAttachment, listAttachments, setSubmissionAttachments, storeAttachment } from "./store";
import { MAX_FILE_BYTES } from "./limits";
import { tinyPdf, tinyPng } from "./testing/fixtures";

describe.each(testDatabases())("attachment storage on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("stores the bytes as uploaded with their SHA-256, sniffed type and a safe name", async () => {
    const bytes = tinyPng(16);
    const result = await storeAttachment(database.db, { bytes, fileName: "../x-ray\u202E.pdf", uploadedBy: "user-1" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.attachment).toMatchObject({
      contentType: "image/png",
      fileName: "x-ray.pdf.png",
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      submissionId: null,
      uploadedBy: "user-1",
    });
    const row = await getAttachment(database.db, result.attachment.id);
    expect(Buffer.compare(row!.data, bytes)).toBe(0);
  });

  it("keeps binary data byte-for-byte (every byte value, 1 MB)", async () => {
    const big = Buffer.concat([tinyPdf().subarray(0, 9), Buffer.from(Array.from({ length: 1024 * 1024 }, (_, i) => i % 256)), Buffer.from("\n%%EOF\n")]);
    const result = await storeAttachment(database.db, { bytes: big, fileName: "big.pdf" });
    if (!result.ok) throw new Error(result.reason);
    const row = await getAttachment(database.db, result.attachment.id);
    expect(createHash("sha256").update(row!.data).digest("hex")).toBe(result.attachment.sha256);
    expect(row!.data.length).toBe(big.length);
  });

  it("refuses text renamed .pdf, truncated and oversized files without storing them", async () => {
    const before = (await database.db.select({ id: attachments.id }).from(attachments)).length;
    expect(await storeAttachment(database.db, { bytes: Buffer.from("just text"), fileName: "report.pdf" })).toEqual({ ok: false, reason: "unsupported" });
    expect(await storeAttachment(database.db, { bytes: tinyPdf().subarray(0, 30), fileName: "cut.pdf" })).toEqual({ ok: false, reason: "truncated" });
    expect(await storeAttachment(database.db, { bytes: new Uint8Array(MAX_FILE_BYTES + 1), fileName: "huge.pdf" })).toEqual({ ok: false, reason: "tooLarge" });
    expect((await database.db.select({ id: attachments.id }).from(attachments)).length).toBe(before);
  });

  it("links uploads to a submission only for their uploader, and drops removed ones", async () => {
    const draft = await createDraft({ db: database.db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: { resourceType: "Claim", use: "preauthorization" } });
    const a = await storeAttachment(database.db, { bytes: tinyPdf(), fileName: "a.pdf", uploadedBy: "u1" });
    const b = await storeAttachment(database.db, { bytes: tinyPng(), fileName: "b.png", uploadedBy: "u1" });
    const c = await storeAttachment(database.db, { bytes: tinyPng(), fileName: "c.png", uploadedBy: "u2" });
    if (!a.ok || !b.ok || !c.ok) throw new Error("upload failed");
    const ids = [a.attachment.id, b.attachment.id];
    expect((await attachableIds(database.db, ids, "u1")).ok).toBe(true);
    expect((await attachableIds(database.db, [c.attachment.id], "u1")).ok).toBe(false);
    expect((await attachableIds(database.db, [randomUUID()], "u1")).ok).toBe(false);
    await setSubmissionAttachments(database.db, draft.id, ids);
    expect((await listAttachments(database.db, draft.id)).map((x) => x.id)).toEqual(ids);
    // Linked now: still attachable to the same draft (by anyone editing it), not to another.
    expect((await attachableIds(database.db, ids, "u2", draft.id)).ok).toBe(true);
    expect((await attachableIds(database.db, ids, "u1")).ok).toBe(false);
    await setSubmissionAttachments(database.db, draft.id, [b.attachment.id]);
    expect((await listAttachments(database.db, draft.id)).map((x) => x.id)).toEqual([b.attachment.id]);
    expect(await getAttachment(database.db, a.attachment.id)).toBeUndefined();
  });

  it("deletes orphans older than the cut-off only", async () => {
    const old = await storeAttachment(database.db, { bytes: tinyPdf(), fileName: "old.pdf" });
    if (!old.ok) throw new Error();
    const removed = await deleteOrphans(database.db, new Date(Date.now() + 60_000));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await getAttachment(database.db, old.attachment.id)).toBeUndefined();
  });
});

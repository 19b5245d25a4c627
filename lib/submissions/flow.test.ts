import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeAttachment } from "@/lib/attachments";
import { tinyPdf, tinyPng } from "@/lib/attachments/testing/fixtures";
import { auditEvents, submissions } from "@/lib/db/schema";
import { startOutboxWorker, type OutboxWorker } from "@/lib/submissions";
import { getSubmission } from "@/lib/submissions";
import {
  newWebhookSecret,
  startTestSandbox,
  startWebhookRelay,
  testClient,
  waitFor,
  type RelayDeps,
  type SandboxHandle,
  type WebhookRelay,
} from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { demoFormPatient, professionalCare } from "@/lib/submissions/testing";
import { testDatabases } from "@/lib/testing/databases";
import { loadDraftForForm } from "./drafts";
import { getSubmissionView, listSubmissions } from "./views";
import type { Caller } from "@/lib/audit";
import { createClaimFromAuthorization, saveDraft, submitForm } from "./form-service";

const caller: Caller = { actor: { kind: "user", id: "staff-1", email: "frontdesk@clinic.example", roles: ["front_desk"] }, userId: "staff-1", requestId: "00000000-0000-4000-8000-000000000001" };
const billing: Caller = { actor: { kind: "user", id: "staff-2", email: "billing@clinic.example", roles: ["billing"] }, userId: "staff-2" };
const today = new Date().toISOString().slice(0, 10);
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe.each(testDatabases())("prior authorization end to end against the sandbox on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let relay: WebhookRelay;
  let worker: OutboxWorker;
  let patientId: string;
  let coverageId: string;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    database = await target.open();
    ({ patientId, coverageId } = await demoFormPatient(database.db));
    const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, fetchTimeoutMs: 3000 };
    relay = await startWebhookRelay(relayDeps);
    sb = await startTestSandbox({ webhookUrl: relay.url, webhookSecret: secret, adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    relayDeps.client = client;
    worker = startOutboxWorker({
      db: database.db,
      client,
      pollMs: 30,
      leaseMs: 10_000,
      maxAttempts: 3,
      backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 },
      pollAfterMs: 1_000,
      log: () => {},
    });
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await client?.close();
    await sb?.close();
    await relay?.close();
    await database?.dispose();
  });

  const deps = () => ({ db: database.db, providerOrgId: sb.config.providerOrgId });
  const settled = (id: string) =>
    waitFor(async () => {
      const row = await getSubmission(database.db, id);
      return row && ["complete", "partial", "denied", "rejected", "failed"].includes(row.status) ? row : undefined;
    }, 60_000, `submission ${id} decided`);

  it("a draft saved with attachments reopens with them; submitted, it reaches the sandbox byte-for-byte and is decided", async () => {
    const pdf = tinyPdf("MRI request");
    const png = tinyPng(24);
    const a = await storeAttachment(database.db, { bytes: pdf, fileName: "MRI request.pdf", uploadedBy: caller.userId });
    const b = await storeAttachment(database.db, { bytes: png, fileName: "knee.png", uploadedBy: caller.userId });
    if (!a.ok || !b.ok) throw new Error("upload refused");
    const values = {
      use: "preauthorization",
      patientId,
      coverageId,
      ...(await professionalCare(database.db)),
      diagnoses: ["M54.5"],
      procedures: ["72148"],
      items: [{ code: "72148", servicedDate: today, quantity: "1", unitPrice: "2000" }],
      attachmentIds: [a.attachment.id, b.attachment.id],
    };

    // Save as a draft with only part of the form filled in, then reopen it.
    const draft = await saveDraft(deps(), caller, { ...values, items: [{ code: "72148", servicedDate: today, quantity: "1", unitPrice: "" }] });
    expect(draft).toMatchObject({ ok: true, status: "draft" });
    if (!draft.ok) return;
    const reopened = await loadDraftForForm(database.db, draft.id, "preauthorization");
    if (typeof reopened === "string") throw new Error(reopened);
    expect(reopened.values.items[0]).toEqual({ system: "", code: "72148", servicedDate: today, quantity: "1", unitPrice: "", tooth: "", tax: "", patientShare: "", package: false, maternity: false, performed: false });
    expect(reopened.attachments.map((x) => x.id)).toEqual([a.attachment.id, b.attachment.id]);
    expect(reopened.patient?.id).toBe(patientId);

    // A field the browser would have refused is refused by the server too (same schema).
    const bad = await submitForm(deps(), caller, { ...values, items: [{ ...values.items[0], unitPrice: "20.005" }] }, draft.id);
    expect(bad).toMatchObject({ ok: false, error: "invalid", fieldErrors: { "items.0.unitPrice": ["priceInvalid"] } });

    const sent = await submitForm(deps(), caller, values, draft.id);
    expect(sent).toMatchObject({ ok: true, id: draft.id, status: "queued" });
    const done = await settled(draft.id);
    expect(done.status).toBe("complete");

    // The platform's copy holds exactly our bytes.
    const platformCopy = await client.readClaim(done.platformId!);
    // The care setting's chief complaint comes first (decision 083), then the attachments.
    expect(platformCopy.data.supportingInfo?.[0]?.category.coding?.[0]?.code).toBe("chief-complaint");
    const infos = (platformCopy.data.supportingInfo ?? []).filter((s) => s.valueAttachment);
    expect(infos.map((s) => s.valueAttachment?.contentType)).toEqual(["application/pdf", "image/png"]);
    expect(infos.map((s) => sha(Buffer.from(s.valueAttachment!.data!, "base64")))).toEqual([a.attachment.sha256, b.attachment.sha256]);
    expect(infos.map((s) => s.valueAttachment?.title)).toEqual(["MRI request.pdf", "knee.png"]);
    expect(platformCopy.data.use).toBe("preauthorization");

    // The decision per item, with exact amounts and the authorization reference.
    const view = await getSubmissionView(database.db, draft.id, "preauthorization");
    expect(view?.decision?.preAuthRef).toMatch(/^PA-/);
    expect(view?.decision?.lines).toEqual([
      expect.objectContaining({ kind: "item", sequence: 1, code: "72148", submittedMinor: 200_000, eligibleMinor: 200_000, benefitMinor: 160_000, decision: "approved", zeroBenefit: false }),
    ]);
    expect(view?.decision?.decision).toBe("approved");
    expect(view?.attachments.map((x) => x.sha256)).toEqual([sha(pdf), sha(png)]);
    const steps = [...new Set(view?.timeline.map((e) => e.toStatus))];
    expect(steps).toEqual(["draft", "queued", "sent", "complete"]);
    const list = await listSubmissions(database.db, { use: "preauthorization", status: "complete" });
    expect(list.rows[0]).toMatchObject({ id: draft.id, preAuthRef: view?.decision?.preAuthRef, patient: { id: patientId } });

    // Audited by ids, never the national ID.
    const entries = await database.db.select().from(auditEvents).where(eq(auditEvents.targetId, draft.id));
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(["authorization.draft_save", "authorization.submit"]));
    expect(JSON.stringify(entries)).not.toContain("1000000001");

    // Billing makes a claim from it: same data, preAuthRef, linked; submitted and paid.
    const made = await createClaimFromAuthorization(deps(), billing, draft.id);
    expect(made).toMatchObject({ ok: true, reused: false });
    if (!made.ok) return;
    expect(await createClaimFromAuthorization(deps(), billing, draft.id)).toEqual({ ok: true, id: made.id, reused: true });
    const claimDraft = await loadDraftForForm(database.db, made.id, "claim");
    if (typeof claimDraft === "string") throw new Error(claimDraft);
    expect(claimDraft.authorizationId).toBe(draft.id);
    expect(claimDraft.values).toMatchObject({ use: "claim", patientId, coverageId, diagnoses: ["M54.5"], procedures: ["72148"], items: values.items, preAuthRef: view?.decision?.preAuthRef });
    const claimSent = await submitForm(deps(), billing, { ...claimDraft.values }, made.id);
    expect(claimSent).toMatchObject({ ok: true, id: made.id });
    const claimDone = await settled(made.id);
    expect(claimDone.status).toBe("complete");
    expect((claimDone.claim.insurance as { preAuthRef?: string[] }[])[0]?.preAuthRef).toEqual([view?.decision?.preAuthRef]);
    const claimView = await getSubmissionView(database.db, made.id, "claim");
    expect(claimView?.decision?.lines[0]).toMatchObject({ benefitMinor: 160_000, decision: "approved" });
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, made.id));
    expect(row?.authorizationId).toBe(draft.id);
  }, 180_000);

  it("a denied procedure is decided denied without preAuthRef; an undecided authorization cannot become a claim", async () => {
    // The scrubber blocks an excluded service (service-excluded, decision 090): billing overrides it to see the payer's denial.
    const sent = await submitForm(deps(), billing, {
      use: "preauthorization",
      patientId,
      coverageId,
      ...(await professionalCare(database.db)),
      diagnoses: ["H02.8"],
      procedures: ["15823"],
      items: [{ code: "15823", servicedDate: today, quantity: "1", unitPrice: "4000" }],
      attachmentIds: [],
    }, undefined, { scrub: { overrideReason: "Sent to have the payer's decision on record" } });
    if (!sent.ok) throw new Error(sent.error);
    const done = await settled(sent.id);
    expect(done.status).toBe("denied");
    const view = await getSubmissionView(database.db, sent.id, "preauthorization");
    expect(view?.decision?.preAuthRef).toBeUndefined();
    expect(view?.decision?.lines[0]).toMatchObject({ decision: "denied", reasons: [expect.objectContaining({ code: "ar001" })] });
    expect(await createClaimFromAuthorization(deps(), billing, sent.id)).toEqual({ ok: false, error: "not_approved" });
  }, 120_000);

  it("refuses attachments of another user and more than the limits", async () => {
    const other = await storeAttachment(database.db, { bytes: tinyPdf(), fileName: "x.pdf", uploadedBy: "someone-else" });
    if (!other.ok) throw new Error();
    const result = await saveDraft(deps(), caller, { use: "preauthorization", patientId, attachmentIds: [other.attachment.id] });
    expect(result).toEqual({ ok: false, error: "invalid", fieldErrors: { attachmentIds: ["attachmentUnknown"] } });
    const noPatient = await saveDraft(deps(), caller, { use: "preauthorization", patientId: "" });
    expect(noPatient).toMatchObject({ ok: false, error: "invalid", fieldErrors: { patientId: ["patientRequired"] } });
  });
});

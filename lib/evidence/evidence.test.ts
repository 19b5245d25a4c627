import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { evidenceMessages, submissionEvents, submissions } from "@/lib/db/schema";
import { storeAttachment } from "@/lib/attachments";
import { startPipeline, type PipelineServices, type InboundHandlers } from "@/lib/pipeline";
import { submit } from "@/lib/submissions";
import { buildClaim, newWebhookSecret, startTestSandbox, startWebhookRelay, waitFor, type RelayDeps, type SandboxHandle, type WebhookRelay } from "@/lib/pipeline/testing/harness";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { evidenceAcknowledgementInbound } from "./inbound";
import { evidenceOf, sendEvidence } from "./service";

/**
 * Decision 115 against the sandbox, in both protocols: information sent unasked about a partly
 * paid claim (a Communication about it, no CommunicationRequest) is stored, sent, acknowledged by
 * the payer (poll or webhook) and answered by a reissued decision; bad input is refused by field.
 */
const INBOUND: InboundHandlers = { Communication: evidenceAcknowledgementInbound };
const caller = { actor: { kind: "user" as const, id: "staff-2", email: "billing@clinic.example", roles: ["billing"] }, userId: "staff-2", requestId: randomUUID() };
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

describe.each(testDatabases())("evidence sent unasked on $name", (target) => {
  describe.each(["rest", "messaging"] as const)("%s protocol", (protocol) => {
    let database: Awaited<ReturnType<typeof target.open>>;
    let sb: SandboxHandle;
    let client: PlatformClient;
    let port: PlatformPort;
    let relay: WebhookRelay | undefined;
    let services: PipelineServices;

    beforeAll(async () => {
      database = await target.open();
      await seedDemoPatients(database.db);
      const secret = newWebhookSecret();
      const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, inbound: INBOUND };
      if (protocol === "rest") relay = await startWebhookRelay(relayDeps);
      sb = await startTestSandbox({ adjudicationDelayMs: 50, answerStyle: "national", ...(relay ? { webhookUrl: relay.url, webhookSecret: secret } : {}) });
      client = createPlatformClient({ ...sb.config, ...(protocol === "messaging" ? { protocol: "messaging", providerLicense: "PR-CLINIC-001" } : {}) }, { db: database.db, tlsCheckIntervalMs: 60_000 });
      port = portFor(client, database.db);
      relayDeps.client = client;
      services = startPipeline({ db: database.db, client: port, config: { pollMs: 25, leaseMs: 10_000, pollAfterMs: 60_000, messagePollMs: 100 }, log: () => {}, inbound: INBOUND });
    }, 180_000);
    afterAll(async () => {
      await services?.stop(1000);
      await client?.close();
      await sb?.close();
      await relay?.close();
      await database?.dispose();
    });

    const row = async (id: string) => (await database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;
    const deps = () => ({ db: database.db, port, providerOrgId: sb.config.providerOrgId });

    it("a partly paid claim: refused input by field, then text and a file sent, acknowledged, and the decision reissued in full", async () => {
      const claim = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1048573628", claim: buildClaim({ use: "claim", patientId: "1048573628", items: [{ code: "99214", price: 400 }] }) });
      expect(await sendEvidence(deps(), caller, { submissionId: claim.id, text: "too early" })).toEqual({ ok: false, error: "not_sendable" });
      const partial = await waitFor(async () => ((await row(claim.id)).status === "partial" ? true : undefined), 30_000, "partly paid");
      expect(partial).toBe(true);

      expect(await sendEvidence(deps(), caller, { submissionId: claim.id, text: "  " })).toMatchObject({ ok: false, error: "invalid", fieldErrors: { text: ["empty"] } });
      expect(await sendEvidence(deps(), caller, { submissionId: claim.id, text: "x", sequences: [9] })).toMatchObject({ ok: false, error: "invalid", fieldErrors: { sequences: ["lineUnknown"] } });
      expect(await sendEvidence(deps(), caller, { submissionId: claim.id, text: "x", attachmentIds: [randomUUID()] })).toMatchObject({ ok: false, error: "invalid", fieldErrors: { attachmentIds: ["attachmentUnknown"] } });
      expect(await sendEvidence(deps(), caller, { submissionId: randomUUID(), text: "x" })).toEqual({ ok: false, error: "not_found" });
      expect(await sendEvidence(deps(), caller, { submissionId: "nope", text: "x" })).toEqual({ ok: false, error: "not_found" });
      expect(await database.db.select().from(evidenceMessages).where(eq(evidenceMessages.submissionId, claim.id))).toEqual([]);

      const file = await storeAttachment(database.db, { bytes: PDF, fileName: "report.pdf", uploadedBy: caller.userId });
      const fileId = (file as { ok: true; attachment: { id: string } }).attachment.id;
      const sent = await sendEvidence(deps(), caller, { submissionId: claim.id, text: "The specialist's report justifies the price.", attachmentIds: [fileId], sequences: [1] });
      if (!sent.ok) throw new Error(JSON.stringify(sent));
      const stored = (await database.db.select().from(evidenceMessages).where(eq(evidenceMessages.id, sent.id)))[0]!;
      // Unsolicited: about the claim by its business identifier, no basedOn; the stored copy keeps no file bytes.
      const communication = stored.communication as { basedOn?: unknown; about: { identifier: { value: string } }[]; payload: { contentAttachment?: { data?: string } }[] };
      expect(communication.basedOn).toBeUndefined();
      expect(communication.about[0]!.identifier.value).toBe((await row(claim.id)).identifierValue);
      expect(communication.payload.some((p) => p.contentAttachment && p.contentAttachment.data === undefined)).toBe(true);

      await waitFor(async () => ((await evidenceOf(database.db, claim.id))[0]?.status === "acknowledged" ? true : undefined), 20_000, "acknowledged");
      const reissued = await waitFor(async () => ((await row(claim.id)).status === "complete" ? true : undefined), 30_000, "reissued decision");
      expect(reissued).toBe(true);
      const [listed] = await evidenceOf(database.db, claim.id);
      expect(listed).toMatchObject({ files: 1, sequences: [1] });
      const notes = (await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, claim.id))).map((e) => e.detail?.note).filter(Boolean);
      expect(notes).toEqual(expect.arrayContaining(["evidenceSent", "evidenceAcknowledged"]));
      // The same acknowledgement again changes nothing.
      expect(await evidenceAcknowledgementInbound({ db: database.db, clock: () => new Date(), pollAfterMs: 60_000, log: () => {}, source: "poll" }, (await database.db.select().from(evidenceMessages).where(eq(evidenceMessages.id, sent.id)))[0]!.acknowledgement!)).toBe("unchanged");
    }, 120_000);
  });
});

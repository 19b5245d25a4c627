import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { informationRequests, liveEvents, submissionEvents, submissions } from "@/lib/db/schema";
import { storeAttachment } from "@/lib/attachments";
import { cancelSubmission, checkSubmissionStatus } from "@/lib/cancellation";
import { startPipeline, type PipelineServices, type InboundHandlers } from "@/lib/pipeline";
import { submit } from "@/lib/submissions";
import { buildClaim, newWebhookSecret, startTestSandbox, startWebhookRelay, waitFor, type RelayDeps, type SandboxHandle, type WebhookRelay } from "@/lib/pipeline/testing/harness";
import { buildCancelTask } from "@/lib/fhir";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { acknowledgementInbound, informationRequestInbound } from "./inbound";
import { answerInformationRequest, countInformationRequests, listInformationRequests } from "./service";

/**
 * decision 045gainst the sandbox, in both protocols: the payer's CommunicationRequest
 * (webhook + read in REST, poll in messaging) → the queue; the answer (POST /Communication | a
 * `communication` message) → acknowledged → the revised decision; cancel (POST /Task | a
 * `cancel-request` message) → `cancelled` through transition(); a refused cancel; a status check.
 * The sandbox answers as the national exchange does (decision 073): in messaging, every answer
 * names our claim by identifier only and the portal never learns the platform's id.
 */
const INBOUND: InboundHandlers = { CommunicationRequest: informationRequestInbound, Communication: acknowledgementInbound };
const caller = { actor: { kind: "user" as const, id: "staff-2", email: "billing@clinic.example", roles: ["billing"] }, userId: "staff-2", requestId: randomUUID() };
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const DECIDED = ["complete", "partial", "denied"];

describe.each(testDatabases())("information requests, cancellation and status checks on $name", (target) => {
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
      sb = await startTestSandbox({ adjudicationDelayMs: 5_000, answerStyle: "national", ...(relay ? { webhookUrl: relay.url, webhookSecret: secret } : {}) });
      client = createPlatformClient({ ...sb.config, ...(protocol === "messaging" ? { protocol: "messaging", providerLicense: "PR-CLINIC-001" } : {}) }, { db: database.db, tlsCheckIntervalMs: 60_000 });
      port = portFor(client, database.db);
      relayDeps.client = client;
      services = startPipeline({
        db: database.db,
        client: port,
        config: { pollMs: 25, leaseMs: 10_000, pollAfterMs: 60_000, messagePollMs: 100 },
        log: () => {},
        inbound: INBOUND,
      });
    });
    afterAll(async () => {
      await services?.stop(1000);
      await client?.close();
      await sb?.close();
      await relay?.close();
      await database?.dispose();
    });

    const row = async (id: string) => (await database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;
    /** The sandbox's own id of a submission's claim, found by our identifier (the portal may never learn it). */
    const sandboxId = async (identifierValue: string | null) => {
      const { body } = await sb.admin("GET", "/_admin/claims");
      return (body.claims as { id: string; identifier: string }[]).find((c) => c.identifier === identifierValue)?.id;
    };
    const sent = (id: string) =>
      waitFor(
        async () => {
          const r = await row(id);
          if (r.status === "queued") return undefined;
          // Identifier-only answers in messaging: no platform id, and none needed.
          expect(r.platformId === null).toBe(protocol === "messaging");
          const platformId = await sandboxId(r.identifierValue);
          return platformId ? { ...r, platformId } : undefined;
        },
        20_000,
        "claim sent",
      );

    it("a CommunicationRequest reaches the queue and the timeline live; the answer with an attachment is acknowledged and the held claim decided", async () => {
      const claim = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 60 }] }) });
      const { platformId } = await sent(claim.id);
      const asked = await sb.admin("POST", `/_admin/claims/${platformId}/request-information`, { text: "Please send the lab report", attachmentTypes: ["Lab report"], dueInDays: -1 });
      expect(asked.status).toBe(201);
      expect(asked.body.held).toBe(true);
      const request = await waitFor(async () => (await database.db.select().from(informationRequests).where(eq(informationRequests.submissionId, claim.id)))[0], 20_000, "information request stored");
      expect(request).toMatchObject({ status: "open", asks: ["Please send the lab report"], attachmentTypes: ["Lab report"] });
      expect(request.dueAt!.getTime()).toBeLessThan(Date.now());
      const queue = await listInformationRequests(database.db, { kinds: ["claim"] });
      expect(queue.find((q) => q.id === request.id)).toMatchObject({ overdue: true, submissionKind: "claim" });
      expect(await countInformationRequests(database.db, ["claim"])).toMatchObject({ open: 1, overdue: 1 });
      expect(await countInformationRequests(database.db, ["preauthorization"])).toEqual({ open: 0, overdue: 0 });
      const live = await database.db.select().from(liveEvents).where(eq(liveEvents.submissionId, claim.id));
      expect(live.some((e) => e.kind === "information.request" && e.audience.includes("billing"))).toBe(true);

      // A repeated delivery changes nothing.
      expect(await informationRequestInbound({ db: database.db, clock: () => new Date(), pollAfterMs: 60_000, log: () => {}, source: "poll" }, request.raw)).toBe("unchanged");

      const file = await storeAttachment(database.db, { bytes: PDF, fileName: "lab-report.pdf", uploadedBy: caller.userId });
      expect(file.ok).toBe(true);
      const fileId = (file as { ok: true; attachment: { id: string } }).attachment.id;
      expect(await answerInformationRequest({ db: database.db, port, providerOrgId: sb.config.providerOrgId }, caller, { id: request.id, text: "  ", attachmentIds: [] })).toMatchObject({ ok: false, error: "empty" });
      const answered = await answerInformationRequest({ db: database.db, port, providerOrgId: sb.config.providerOrgId }, caller, { id: request.id, text: "Lab report attached", attachmentIds: [fileId] });
      expect(answered).toEqual({ ok: true, status: "answered" });
      // The answer names the payer's request by its identifier, never by id alone (the exchange refuses that: BV-90005).
      const kept = (await database.db.select().from(informationRequests).where(eq(informationRequests.id, request.id)))[0]!;
      const payerIdentifier = (kept.raw.identifier as { system: string; value: string }[])[0]!;
      expect((kept.communication as { basedOn: unknown[] }).basedOn).toEqual([{ type: "CommunicationRequest", identifier: { system: payerIdentifier.system, value: payerIdentifier.value } }]);
      expect(await answerInformationRequest({ db: database.db, port, providerOrgId: sb.config.providerOrgId }, caller, { id: request.id, text: "again", attachmentIds: [] })).toMatchObject({ ok: false, error: "already_answered" });

      await waitFor(async () => (await database.db.select().from(informationRequests).where(eq(informationRequests.id, request.id)))[0]?.status === "acknowledged", 20_000, "acknowledged");
      const decided = await waitFor(async () => {
        const r = await row(claim.id);
        return DECIDED.includes(r.status) ? r : undefined;
      }, 30_000, "revised decision");
      expect(decided.status).toBe("complete");
      const notes = (await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, claim.id))).map((e) => e.detail?.note).filter(Boolean);
      expect(notes[0]).toBe("informationRequested");
      // Answered and acknowledged: in that order, unless the acknowledgement overtook the answer's commit (next test).
      expect(notes.slice(1).sort()).toEqual(["informationAcknowledged", "informationAnswered"]);
      const mail = await sb.admin("GET", "/_admin/mail");
      expect((mail.body.mail as { event: string }[]).map((m) => m.event)).toEqual(["communication-request", "acknowledgement"]);
    }, 90_000);

    it("an acknowledgement that arrives before the answer is recorded is not lost", async () => {
      const claim = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 61 }] }) });
      const { platformId } = await sent(claim.id);
      await sb.admin("POST", `/_admin/claims/${platformId}/request-information`, { text: "Please send the referral", dueInDays: 3 });
      const request = await waitFor(async () => (await database.db.select().from(informationRequests).where(eq(informationRequests.submissionId, claim.id)))[0], 20_000, "information request stored");
      // The payer's acknowledgement is handled while the send is still returning (a poll overtaking it).
      const overtaking: PlatformPort = {
        ...port,
        sendCommunication: async (communication, options) => {
          const answer = await port.sendCommunication(communication, options);
          const ack = { resourceType: "Communication", id: randomUUID(), status: "completed", inResponseTo: [{ reference: `Communication/${communication.id}` }] };
          // "unchanged" when the platform's own acknowledgement (poll or webhook) got there first: also before the commit.
          expect(["applied", "unchanged"]).toContain(await acknowledgementInbound({ db: database.db, clock: () => new Date(), pollAfterMs: 60_000, log: () => {}, source: "poll" }, ack));
          return answer;
        },
      };
      const answered = await answerInformationRequest({ db: database.db, port: overtaking, providerOrgId: sb.config.providerOrgId }, caller, { id: request.id, text: "Referral attached", attachmentIds: [] });
      expect(answered).toEqual({ ok: true, status: "answered" });
      const [after] = await database.db.select().from(informationRequests).where(eq(informationRequests.id, request.id));
      expect(after).toMatchObject({ status: "acknowledged", answerText: "Referral attached", answeredBy: caller.userId });
      expect(after!.answeredAt).not.toBeNull();
      expect(after!.acknowledgedAt).not.toBeNull();
    }, 60_000);

    it("cancels an authorization (cancel Task completed → cancelled through transition()); a second cancel is refused", async () => {
      const auth = await submit({ db: database.db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }] }) });
      const decided = await waitFor(async () => {
        const r = await row(auth.id);
        return DECIDED.includes(r.status) ? r : undefined;
      }, 20_000, "authorization decided");
      const deps = { db: database.db, port, providerOrgId: sb.config.providerOrgId };
      expect(await cancelSubmission(deps, caller, { id: auth.id, reason: "NP", kinds: ["claim"] })).toEqual({ ok: false, error: "not_found" });
      const result = await cancelSubmission(deps, caller, { id: auth.id, reason: "NP", kinds: ["preauthorization", "claim"] });
      expect(result).toEqual({ ok: true, done: true, status: "cancelled" });
      const events = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id));
      expect(events.at(-1)).toMatchObject({ fromStatus: decided.status, toStatus: "cancelled", source: "user", detail: { cancelReason: "NP", task: "cancel", taskStatus: "completed" } });
      expect(await cancelSubmission(deps, caller, { id: auth.id, reason: "NP", kinds: ["preauthorization"] })).toEqual({ ok: false, error: "not_cancellable" });

      // The platform refuses a cancel of what it already cancelled: the Task comes back rejected with its reason.
      const identifier = { system: decided.identifierSystem!, value: decided.identifierValue! };
      const again = await port.cancel(buildCancelTask({ id: randomUUID(), target: { identifier }, code: "cancel", reason: "WI", providerOrgId: sb.config.providerOrgId, authoredOn: new Date() }));
      expect(again.outcome).toEqual({ done: false, taskStatus: "rejected", reason: "The claim is already cancelled" });
      const claims = await sb.admin("GET", "/_admin/claims");
      expect((claims.body.claims as { identifier: string; status: string }[]).find((c) => c.identifier === identifier.value)?.status).toBe("cancelled");
      expect(decided.platformId === null).toBe(protocol === "messaging");
    }, 60_000);

    it("nullifies a decided claim and shows what the platform says on a status check", async () => {
      const claim = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "36415", price: 15 }] }) });
      const { platformId } = await sent(claim.id);
      await sb.admin("POST", `/_admin/claims/${platformId}/process`);
      const deps = { db: database.db, port, providerOrgId: sb.config.providerOrgId };
      const checked = await checkSubmissionStatus(deps, caller, { id: claim.id, kinds: ["claim"] });
      expect(checked.ok).toBe(true);
      const check = (checked as { ok: true; check: { platform?: string; agree: boolean; updated: boolean; now: string } }).check;
      expect(check.platform).toBe("complete");
      expect(check.now).toBe("complete");
      expect((await row(claim.id)).status).toBe("complete");
      const nullified = await cancelSubmission(deps, caller, { id: claim.id, reason: "WI", kinds: ["claim"] });
      expect(nullified).toEqual({ ok: true, done: true, status: "cancelled" });
      const events = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, claim.id));
      expect(events.at(-1)?.detail).toMatchObject({ task: "nullify", cancelReason: "WI" });
      const after = await checkSubmissionStatus(deps, caller, { id: claim.id, kinds: ["claim"] });
      expect((after as { ok: true; check: { platform?: string; now: string } }).check).toMatchObject({ platform: "cancelled", now: "cancelled" });
    }, 60_000);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Caller } from "@/lib/audit";
import { liveEvents, submissionEvents, submissions } from "@/lib/db/schema";
import { readClaimResponse, type ClaimResponseView } from "@/lib/fhir";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "@/lib/platform";
import { startPipeline, type PipelineServices, type InboundContext } from "@/lib/pipeline";
import { newWebhookSecret, startTestSandbox, startWebhookRelay, testClient, waitFor, type RelayDeps, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import { cancelSubmission } from "@/lib/cancellation";
import { authorizationUsage } from "@/lib/authorization-usage";
import { createClaimFromAuthorization, draftChangeOfPayerAuthorization, getSubmissionView, listSubmissions, loadDraftForForm, submitForm } from "@/lib/submissions";
import { professionalCare } from "@/lib/submissions/testing";
import { INBOUND_HANDLERS } from "@/lib/server/inbound-handlers";
import { testDatabases } from "@/lib/testing/databases";
import { advancedAuthorizationInbound, isAdvancedAuthorization, recordAdvancedAuthorization, reissueReasonOf } from "./advanced";
import { askPayerToChange } from "./advanced-change";

/**
 * The payer's advanced authorization (guide v2.7 section 7.9; docs/decisions/101), against the real
 * sandbox in the messaging protocol: the sandbox originates it (admin), the portal's poll brings it,
 * the inbound routing records it; billing makes a claim from it; the payer reissues and cancels
 * it; the clinic cancels one by its identifier.
 */
const billing: Caller = { actor: { kind: "user", id: "staff-2", email: "billing@clinic.example", roles: ["billing"] }, userId: "staff-2" };
const CHRONIC = "2087654311";

describe.each(testDatabases())("advanced authorization on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let port: PlatformPort;
  let services: PipelineServices;

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = createPlatformClient({ ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    port = portFor(client, database.db);
    services = startPipeline({
      db: database.db,
      client: port,
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 25, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 2_000, concurrency: 4, messagePollMs: 100 },
      log: () => {},
      inbound: INBOUND_HANDLERS,
    });
  }, 180_000);
  afterAll(async () => {
    await services?.stop();
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const originate = async (path: string, body: unknown = {}) => {
    const answer = await sb.admin("POST", path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as Record<string, unknown> & { id: string; preAuthRef: string; identifier: { system: string; value: string }[] };
  };
  const recorded = (preAuthRef: string, status?: string) =>
    waitFor(
      async () => {
        const rows = await database.db.select().from(submissions).where(eq(submissions.channel, "payer"));
        const row = rows.find((r) => r.response?.preAuthRef === preAuthRef);
        return row && (!status || row.status === status) ? row : undefined;
      },
      20_000,
      `advanced authorization ${preAuthRef}${status ? ` ${status}` : ""}`,
    );

  it("recognizes one by its content: the marks of either edition, or a prior-authorization answer to no request", async () => {
    const apa = await originate("/_admin/advanced-authorizations/demo", { style: "default" });
    const view = readClaimResponse(apa).view as ClaimResponseView;
    expect(isAdvancedAuthorization(apa, view)).toBe(true);
    expect(isAdvancedAuthorization(apa, view, "priorauth-response")).toBe(true);
    // Without profile and reason extension: still one, because it answers no request.
    const bare = { ...apa, meta: {}, extension: [] };
    expect(isAdvancedAuthorization(bare, readClaimResponse(bare).view)).toBe(true);
    // An answer to a request is not one, unless it is marked (either edition's event).
    const answering = { ...bare, request: { identifier: { system: "http://clinic.example/claim", value: "X-1" } } };
    expect(isAdvancedAuthorization(answering, readClaimResponse(answering).view)).toBe(false);
    expect(isAdvancedAuthorization(answering, readClaimResponse(answering).view, "advanced-priorauth")).toBe(true);
    expect(isAdvancedAuthorization(answering, readClaimResponse(answering).view, "advanced-authorization")).toBe(true);
    // Not a prior authorization, or no preAuthRef: not one.
    const claimUse = { ...apa, use: "claim" };
    expect(isAdvancedAuthorization(claimUse, readClaimResponse(claimUse).view, "advanced-authorization")).toBe(false);
    const noRef = { ...apa, preAuthRef: undefined };
    expect(isAdvancedAuthorization(noRef, readClaimResponse(noRef).view, "advanced-authorization")).toBe(false);
    expect(reissueReasonOf(apa)).toBeUndefined();
    // The poll brings it in any case; wait so the next tests start from a drained queue.
    await recorded(apa.preAuthRef);
  }, 60_000);

  it("the poll brings it and it is recorded once: an approved authorization of the patient's, with the payer's answer, timeline and live event", async () => {
    const apa = await originate("/_admin/advanced-authorizations/demo");
    const row = await recorded(apa.preAuthRef, "complete");
    expect(row).toMatchObject({ kind: "preauthorization", channel: "payer", patientNationalId: CHRONIC, insurerId: "payer-rimal", identifierValue: apa.identifier[0]!.value, totalMinor: 39_000, currency: "SAR" });
    expect(row.response?.id).toBe(apa.id);
    const view = await getSubmissionView(database.db, row.id, "preauthorization");
    expect(view?.decision?.preAuthRef).toBe(apa.preAuthRef);
    expect(view?.decision?.preAuthPeriod?.end).toBe((apa.preAuthPeriod as { end: string }).end);
    expect(view?.decision?.lines.map((l) => [l.code, l.benefitMinor])).toEqual([
      ["SVC-0102", 27_000],
      ["LAB-4002", 8_100],
    ]);
    expect(view?.timeline.map((e) => [e.fromStatus, e.toStatus, e.source, (e.detail as { event?: string })?.event])).toEqual([[null, "complete", "poll", "advanced-authorization"]]);
    const live = await database.db.select().from(liveEvents).where(eq(liveEvents.submissionId, row.id));
    expect(live.map((e) => [e.kind, e.status])).toEqual([["submission.status", "complete"]]);
    const list = await listSubmissions(database.db, { use: "preauthorization" });
    expect(list.rows.find((r) => r.id === row.id)).toMatchObject({ preAuthRef: apa.preAuthRef, fromPayer: true });

    // The same message again, and the same answer with its keys in another order: unchanged.
    const context: InboundContext = { db: database.db, clock: () => new Date(), pollAfterMs: 60_000, log: () => {}, source: "webhook", event: "advanced-authorization" };
    expect(await advancedAuthorizationInbound(context, apa)).toBe("unchanged");
    const reordered = Object.fromEntries(Object.entries(apa).reverse());
    expect(await recordAdvancedAuthorization(database.db, reordered, "user", { force: true })).toEqual({ result: "unchanged", id: row.id });
    expect(await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, row.id))).toHaveLength(1);
    // Anything else is unrouted: another resource, a claim's answer, a patient the clinic has not registered.
    expect(await advancedAuthorizationInbound(context, { resourceType: "Communication", status: "completed" })).toBe("unrouted");
    expect(await advancedAuthorizationInbound(context, { ...apa, use: "claim" })).toBe("unrouted");
    const stranger = { ...apa, preAuthRef: "APA-STRANGER", patient: { identifier: { system: "http://nphies.sa/identifier/nationalid", value: "1000000009" } } };
    expect(await recordAdvancedAuthorization(database.db, stranger, "webhook")).toEqual({ result: "unrouted", reason: "patient-unknown" });
  }, 60_000);

  it("billing makes a claim from it (its items, insurance.preAuthRef), which the payer decides", async () => {
    const apa = await originate("/_admin/advanced-authorizations/demo");
    const auth = await recorded(apa.preAuthRef, "complete");
    const deps = { db: database.db, providerOrgId: "clinic-001", protocol: "messaging" as const };
    // What it allows, per service: the payer's added lines (no claim lines were asked).
    expect((await authorizationUsage(database.db, auth.id))?.services.map((u) => [u.code, u.approvedQuantity, u.remainingQuantity, u.approvedMinor])).toEqual([
      ["SVC-0102", 1, 1, 30_000],
      ["LAB-4002", 1, 1, 9_000],
    ]);
    const made = await createClaimFromAuthorization(deps, billing, auth.id);
    expect(made).toMatchObject({ ok: true, reused: false });
    if (!made.ok) return;
    const draft = await loadDraftForForm(database.db, made.id, "claim");
    if (typeof draft === "string") throw new Error(draft);
    expect(draft.authorizationId).toBe(auth.id);
    expect(draft.values.preAuthRef).toBe(apa.preAuthRef);
    expect(draft.values.coverageId).not.toBe("");
    expect(draft.values.items.map((i) => [i.code, i.quantity, i.unitPrice])).toEqual([
      ["SVC-0102", "1", "300.00"],
      ["LAB-4002", "1", "90.00"],
    ]);
    // Billing adds what an approval does not carry (diagnosis, care team) and sends it.
    const sent = await submitForm(deps, billing, { ...draft.values, ...(await professionalCare(database.db)), diagnoses: ["E11.9"] }, made.id, { scrub: { acknowledgeWarnings: true } });
    expect(sent).toMatchObject({ ok: true, id: made.id });
    const claim = await waitFor(
      async () => {
        const [row] = await database.db.select().from(submissions).where(eq(submissions.id, made.id));
        return row && ["complete", "partial"].includes(row.status) ? row : undefined;
      },
      30_000,
      "the claim decided",
    );
    expect((claim.claim.insurance as { preAuthRef?: string[] }[])[0]?.preAuthRef).toEqual([apa.preAuthRef]);
    expect(claim.authorizationId).toBe(auth.id);
    expect((await authorizationUsage(database.db, auth.id))?.services.map((u) => [u.code, u.usedQuantity, u.remainingQuantity])).toEqual([
      ["SVC-0102", 1, 0],
      ["LAB-4002", 1, 0],
    ]);
  }, 90_000);

  it("the payer reissues it (the newest answer decides, the earlier stays on the timeline) and cancels it", async () => {
    const apa = await originate("/_admin/advanced-authorizations/demo");
    const first = await recorded(apa.preAuthRef, "complete");
    await originate(`/_admin/advanced-authorizations/${apa.preAuthRef}/reissue`, { reason: "extension", items: [{ system: "http://nphies.sa/terminology/CodeSystem/services", code: "SVC-0102", quantity: 2 }], validDays: 365 });
    const reissued = await waitFor(
      async () => {
        const [row] = await database.db.select().from(submissions).where(eq(submissions.id, first.id));
        return row && row.totalMinor === 60_000 ? row : undefined;
      },
      20_000,
      "the reissue applied",
    );
    expect(reissued.status).toBe("complete");
    expect(reissued.response?.id).not.toBe(apa.id);
    await originate(`/_admin/advanced-authorizations/${apa.preAuthRef}/cancel`);
    await recorded(apa.preAuthRef, "cancelled");
    const timeline = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, first.id)).orderBy(submissionEvents.id);
    expect(timeline.map((e) => [e.fromStatus, e.toStatus, (e.detail as { note?: string }).note ?? null, (e.detail as { reissueReason?: string }).reissueReason ?? null])).toEqual([
      [null, "complete", null, null],
      ["complete", "complete", "reissued", "extension"],
      ["complete", "cancelled", "payerCancelled", "cancel"],
    ]);
    // The earlier decision stays on the timeline.
    expect((timeline[1]!.detail as { previous: { totalMinor: number } }).previous.totalMinor).toBe(39_000);
    expect((timeline[2]!.detail as { previous: { totalMinor: number } }).previous.totalMinor).toBe(60_000);
    const rows = await database.db.select().from(submissions).where(and(eq(submissions.channel, "payer"), eq(submissions.patientNationalId, CHRONIC)));
    expect(rows.filter((r) => r.response?.preAuthRef === apa.preAuthRef)).toHaveLength(1);
  }, 60_000);

  it("the clinic cancels one: a cancel-request naming its identifier in Task.focus, accepted by the payer", async () => {
    const apa = await originate("/_admin/advanced-authorizations", { patient: CHRONIC, items: [{ system: "http://nphies.sa/terminology/CodeSystem/laboratory", code: "LAB-4001" }], validDays: 30 });
    const row = await recorded(apa.preAuthRef, "complete");
    const result = await cancelSubmission({ db: database.db, port, providerOrgId: "clinic-001" }, billing, { id: row.id, reason: "WI", kinds: ["preauthorization"] });
    expect(result).toEqual({ ok: true, done: true, status: "cancelled" });
    // The payer knows it is cancelled: it refuses to reissue it.
    const again = await sb.admin("POST", `/_admin/advanced-authorizations/${apa.preAuthRef}/reissue`, {});
    expect(again.status).toBe(409);
  }, 60_000);

  it("the clinic changes it: a new request repeating its services, keeping its preAuthRef, related to it; or asks the payer by a Communication about it", async () => {
    const apa = await originate("/_admin/advanced-authorizations/demo");
    const auth = await recorded(apa.preAuthRef, "complete");
    const deps = { db: database.db, providerOrgId: "clinic-001", protocol: "messaging" as const };
    const change = await draftChangeOfPayerAuthorization(deps, billing, auth.id);
    expect(change).toMatchObject({ ok: true, reused: false });
    if (!change.ok) return;
    expect(await draftChangeOfPayerAuthorization(deps, billing, auth.id)).toEqual({ ok: true, id: change.id, reused: true });
    const draft = await loadDraftForForm(database.db, change.id, "preauthorization");
    if (typeof draft === "string") throw new Error(draft);
    expect(draft.values.preAuthRef).toBe(apa.preAuthRef);
    expect(draft.values.items.map((i) => i.code)).toEqual(["SVC-0102", "LAB-4002"]);
    // An added line (the change), then sent: the Claim keeps the preAuthRef and names the approval as prior.
    const items = [...draft.values.items, { ...draft.values.items[1]!, code: "LAB-4003", unitPrice: "120.00" }];
    const sent = await submitForm(deps, billing, { ...draft.values, items, ...(await professionalCare(database.db)), diagnoses: ["E11.9"] }, change.id, { scrub: { acknowledgeWarnings: true } });
    expect(sent).toMatchObject({ ok: true, id: change.id });
    const decided = await waitFor(
      async () => {
        const [row] = await database.db.select().from(submissions).where(eq(submissions.id, change.id));
        return row && ["complete", "partial", "denied", "rejected"].includes(row.status) ? row : undefined;
      },
      30_000,
      "the change decided",
    );
    expect(decided.status).toBe("complete");
    expect((decided.claim.insurance as { preAuthRef?: string[] }[])[0]?.preAuthRef).toEqual([apa.preAuthRef]);
    expect(decided.claim.related).toEqual([expect.objectContaining({ claim: expect.objectContaining({ identifier: expect.objectContaining({ value: apa.identifier[0]!.value }) }) })]);
    // Approved, the change overrides the payer's approval: its page says so and links the current version; its timeline notes it once.
    const earlier = await getSubmissionView(database.db, auth.id, "preauthorization");
    expect(earlier?.overriddenBy?.id).toBe(change.id);
    expect(earlier?.timeline.filter((e) => (e.detail as { note?: string } | null)?.note === "overridden").map((e) => (e.detail as { by?: string }).by)).toEqual([change.id]);
    expect((await getSubmissionView(database.db, change.id, "preauthorization"))?.overriddenBy).toBeUndefined();

    // Asking the payer: a Communication about the approval by its identifier, acknowledged; noted on the timeline.
    const cancellation = { db: database.db, port, providerOrgId: "clinic-001" };
    expect(await askPayerToChange(cancellation, billing, { id: auth.id, text: "   " })).toEqual({ ok: false, error: "empty" });
    expect(await askPayerToChange(cancellation, billing, { id: auth.id, text: "x".repeat(2001) })).toEqual({ ok: false, error: "too_long" });
    expect(await askPayerToChange(cancellation, billing, { id: change.id, text: "Please extend" })).toEqual({ ok: false, error: "not_found" });
    expect(await askPayerToChange(cancellation, billing, { id: auth.id, text: "Please extend the approval by three months." })).toEqual({ ok: true });
    const notes = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id));
    expect(notes.map((e) => (e.detail as { note?: string } | null)?.note ?? null)).toContain("changeAsked");
    expect(JSON.stringify(notes)).not.toContain("three months");
    const mail = (await sb.admin("GET", "/_admin/mail")).body.mail as { event: string; resource: { about?: { identifier?: { value?: string } }[] } }[];
    expect(mail.some((m) => m.event === "acknowledgement" && m.resource.about?.[0]?.identifier?.value === apa.identifier[0]!.value)).toBe(true);
  }, 90_000);
});

describe.each(testDatabases())("advanced authorization in REST (webhook) on $name", (target) => {
  it("a resource.available webhook is read back and recorded, in the sandbox's default answer style; the payer's cancellation too", async () => {
    const database = await target.open();
    await seedDemoPatients(database.db);
    const secret = newWebhookSecret();
    const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, inbound: INBOUND_HANDLERS };
    const relay = await startWebhookRelay(relayDeps);
    const sb = await startTestSandbox({ webhookUrl: relay.url, webhookSecret: secret });
    const client = testClient(database.db, sb.config);
    relayDeps.client = client;
    try {
      const posted = await sb.admin("POST", "/_admin/advanced-authorizations", {
        patient: "1000000001",
        items: [{ system: "http://nphies.sa/terminology/CodeSystem/imaging", code: "IMG-3001", quantity: 2 }],
        validDays: 30,
        event: "advanced-priorauth",
        style: "default",
      });
      expect(posted.status).toBe(201);
      const apa = posted.body as { preAuthRef: string; id: string };
      const row = await waitFor(
        async () => (await database.db.select().from(submissions).where(eq(submissions.channel, "payer"))).find((r) => r.response?.preAuthRef === apa.preAuthRef),
        15_000,
        "recorded from the webhook",
      );
      expect(row).toMatchObject({ status: "complete", patientNationalId: "1000000001", insurerId: "payer-rimal", totalMinor: 36_000 });
      const [first] = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, row.id));
      expect(first).toMatchObject({ fromStatus: null, toStatus: "complete", source: "webhook" });
      expect((await sb.admin("POST", `/_admin/advanced-authorizations/${apa.preAuthRef}/cancel`, {})).status).toBe(201);
      await waitFor(
        async () => {
          const [now] = await database.db.select().from(submissions).where(eq(submissions.id, row.id));
          return now?.status === "cancelled" ? now : undefined;
        },
        15_000,
        "cancelled by the payer",
      );
      // Bad admin input is a 400 naming the field; an unknown patient a 404.
      const bad = await sb.admin("POST", "/_admin/advanced-authorizations", { patient: "12", items: [] });
      expect(bad.status).toBe(400);
      expect(String(bad.body.message)).toMatch(/^patient/);
      expect((await sb.admin("POST", "/_admin/advanced-authorizations", { patient: "1999999999", items: [{ code: "LAB-4001" }] })).status).toBe(404);
      expect((await sb.admin("POST", "/_admin/advanced-authorizations/APA-NONE/reissue", {})).status).toBe(404);
    } finally {
      await client.close();
      await sb.close();
      await relay.close();
      await database.dispose();
    }
  }, 60_000);
});

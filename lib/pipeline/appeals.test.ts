import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { attachments, submissions } from "@/lib/db/schema";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient } from "@/lib/platform";
import { appealableLines, appealsOf, fileAppeal, submissionTimeline, submit } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { startPipeline } from "./index";
import { buildClaim, newWebhookSecret, startTestSandbox, startWebhookRelay, waitFor, type RelayDeps, type SandboxHandle, type WebhookRelay } from "./testing/harness";

/**
 * Appeals round trip (docs/decisions/081) in both protocols: a claim the sandbox cuts (price list)
 * and denies (no prior authorization) is appealed through lib/submissions and sent by the normal
 * pipeline; with a justification and a supporting file the sandbox overturns the lines, without a
 * file it upholds them (sandbox/README.md "Appeals").
 */
const DECIDED = ["complete", "partial", "denied"];
const caller: Caller = { actor: { kind: "user", id: "biller-1", email: "billing@clinic.example", roles: ["billing"] }, userId: randomUUID(), requestId: randomUUID() };

describe.each(["rest", "messaging"] as const)("appeals against the sandbox in the %s protocol", (protocol) => {
  const target = testDatabases()[0]!;
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let relay: WebhookRelay | undefined;
  let services: ReturnType<typeof startPipeline>;

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    const secret = newWebhookSecret();
    const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, fetchTimeoutMs: 3000 };
    if (protocol === "rest") relay = await startWebhookRelay(relayDeps);
    sb = await startTestSandbox({ adjudicationDelayMs: 50, ...(relay ? { webhookUrl: relay.url, webhookSecret: secret } : {}) });
    client = createPlatformClient({ ...sb.config, ...(protocol === "messaging" ? { protocol: "messaging", providerLicense: "PR-CLINIC-001" } : {}) }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    relayDeps.client = client;
    services = startPipeline({
      db: database.db,
      client: portFor(client, database.db),
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 10, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 2_000, concurrency: 4, messagePollMs: 100 },
      log: () => {},
    });
  });
  afterAll(async () => {
    await services?.stop();
    await client?.close();
    await sb?.close();
    await relay?.close();
    await database?.dispose();
  });

  const decided = (id: string) =>
    waitFor(async () => {
      const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
      return row && DECIDED.includes(row.status) ? row : undefined;
    }, 30_000, `submission ${id} decided`);

  async function deniedClaim() {
    // 85025 billed above the price list (cut: price-list), 70553 without the prior authorization it needs (denied: preauth-required).
    const claim = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 80 }, { code: "70553", price: 2500 }] }) });
    const row = await decided(claim.id);
    expect(row.status).toBe("partial");
    const lines = await appealableLines(database.db, claim.id);
    // (The national answer style marks the cut line's item outcome as rejected too; the reasons are the same.)
    expect(lines.map((l) => [l.sequence, l.reasonCode])).toEqual([
      [1, "price-list"],
      [2, "preauth-required"],
    ]);
    expect(lines[1]!.outcome).toBe("rejected");
    return row;
  }

  async function upload(): Promise<string> {
    const bytes = Buffer.from("%PDF-1.4\n% operative note\n%%EOF\n");
    const [row] = await database.db
      .insert(attachments)
      .values({ fileName: "operative-note.pdf", contentType: "application/pdf", size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), data: bytes, uploadedBy: caller.userId })
      .returning({ id: attachments.id });
    return row!.id;
  }

  it("with a justification and a supporting file: both lines overturned, the appealed claim's timeline and list show it", async () => {
    const original = await deniedClaim();
    const file = await upload();
    const filed = await fileAppeal({ db: database.db }, caller, { claimId: original.id, sequences: [1, 2], justification: "MRI was ordered in the emergency department; the referral and report are attached.", attachmentIds: [file] });
    expect(filed.ok).toBe(true);
    const appealId = (filed as { id: string }).id;
    // A second appeal while this one is open is refused.
    expect(await fileAppeal({ db: database.db }, caller, { claimId: original.id, sequences: [2], justification: "Another try at the same lines." })).toEqual({ ok: false, error: "already_appealed" });

    const appeal = await decided(appealId);
    expect(appeal.status).toBe("complete");
    expect(appeal.appealOfId).toBe(original.id);
    const sent = appeal.claim as { related?: { relationship?: { coding?: { system?: string; code?: string }[] }; claim?: { identifier?: { value?: string } } }[]; item?: unknown[]; supportingInfo?: { category?: { coding?: { code?: string }[] } }[] };
    expect(sent.related?.[0]?.relationship?.coding?.[0]).toEqual({ system: "http://nphies.sa/terminology/CodeSystem/related-claim-relationship", code: "prior" });
    expect(sent.related?.[0]?.claim?.identifier?.value).toBe(original.identifierValue);
    expect(sent.item).toHaveLength(2);
    expect(sent.supportingInfo?.map((s) => s.category?.coding?.[0]?.code)).toEqual(["info", "attachment"]);
    // Overturned: nothing left at stake on the appeal.
    expect(await appealableLines(database.db, appealId)).toEqual([]);

    expect((await appealsOf(database.db, original.id)).map((a) => [a.id, a.status])).toEqual([[appealId, "complete"]]);
    const notes = (await submissionTimeline(database.db, original.id)).filter((e) => e.detail?.note === "appealFiled");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.detail).toMatchObject({ appealId, lines: 2, files: 1 });
  }, 60_000);

  it("without a supporting file: the denied line is upheld with its reason; bad input is a field error", async () => {
    const original = await deniedClaim();
    expect(await fileAppeal({ db: database.db }, caller, { claimId: original.id, sequences: [3], justification: "This line does not exist on the claim." })).toMatchObject({ ok: false, error: "invalid", fieldErrors: { sequences: ["lineNotAppealable"] } });
    expect(await fileAppeal({ db: database.db }, caller, { claimId: original.id, sequences: [2], justification: "short" })).toMatchObject({ ok: false, error: "invalid", fieldErrors: { justification: ["justificationShort"] } });
    expect(await fileAppeal({ db: database.db }, caller, { claimId: randomUUID(), sequences: [2], justification: "No such claim in the portal at all." })).toEqual({ ok: false, error: "not_found" });

    const filed = await fileAppeal({ db: database.db }, caller, { claimId: original.id, sequences: [2], justification: "The MRI was urgent and could not wait for approval." });
    expect(filed.ok).toBe(true);
    const appeal = await decided((filed as { id: string }).id);
    expect(appeal.status).toBe("denied");
    expect((await appealableLines(database.db, appeal.id)).map((l) => [l.sequence, l.reasonCode, l.outcome])).toEqual([[1, "preauth-required", "rejected"]]);
  }, 60_000);
});

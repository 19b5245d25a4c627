import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveDraft, submitForm } from "@/lib/submissions/form-service";
import { submissions } from "@/lib/db/schema";
import { startOutboxWorker, type OutboxWorker } from "@/lib/submissions";
import { createDraft, getSubmission } from "@/lib/submissions";
import { newWebhookSecret, startTestSandbox, startWebhookRelay, testClient, waitFor, type RelayDeps, type SandboxHandle, type WebhookRelay } from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { testDatabases } from "@/lib/testing/databases";
import { batchProgress, progressOf } from "./batch";
import { findDuplicateClaims } from "./duplicates";
import { countClaimsByStatus, listClaims, replacementLinks, workQueue, type ClaimSort } from "./queries";
import { reconcile } from "./reconcile";
import type { Caller } from "@/lib/audit";
import { copyClaim, draftDuplicates, fixRejectedClaim, retryClaim, submitBatch } from "./service";
import { demoFormPatient, patchSubmission, professionalCare } from "@/lib/submissions/testing";

const billing: Caller = { actor: { kind: "user", id: "staff-2", email: "billing@clinic.example", roles: ["billing"] }, userId: "staff-2" };
const today = new Date().toISOString().slice(0, 10);
const TZ = "Asia/Riyadh";

function fhirClaim(items: { code: string; date: string; qty: number; price: number }[]) {
  return {
    resourceType: "Claim",
    use: "claim",
    item: items.map((i, n) => ({
      sequence: n + 1,
      productOrService: { coding: [{ code: i.code }] },
      servicedDate: i.date,
      quantity: { value: i.qty },
      unitPrice: { value: i.price, currency: "SAR" },
      net: { value: i.price * i.qty, currency: "SAR" },
    })),
    total: { value: items.reduce((s, i) => s + i.price * i.qty, 0), currency: "SAR" },
  };
}

describe("batch progress (pure)", () => {
  it("counts everything that has left draft/queued as done", () => {
    expect(progressOf({ queued: 3, sent: 2, complete: 4, rejected: 1 })).toEqual({ total: 10, done: 7, byStatus: { queued: 3, sent: 2, complete: 4, rejected: 1 } });
    expect(progressOf({})).toMatchObject({ total: 0, done: 0 });
  });
});

describe.each(testDatabases())("claims list, duplicates and batches on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  const ids: string[] = [];
  beforeAll(async () => {
    database = await target.open();
    // 23 claims over three days (Riyadh), three patients, two insurers, totals with ties.
    for (let n = 0; n < 23; n++) {
      const at = new Date(Date.UTC(2026, 0, 10 + (n % 3), 20, n)); // 20:xx UTC = 23:xx Riyadh
      const row = await createDraft(
        { db: database.db, clock: () => at },
        { kind: "claim", patientNationalId: `100000000${n % 3}`, insurerId: n % 2 ? "payer-rimal" : "payer-wadi", claim: fhirClaim([{ code: "99213", date: "2026-01-10", qty: 1, price: 100 * (n % 5) }]) },
      );
      ids.push(row.id);
    }
    const statuses = ["complete", "rejected", "sent"] as const;
    for (let n = 0; n < 6; n++) await patchSubmission(database.db, ids[n]!, { status: statuses[n % 3] });
  }, 60_000);
  afterAll(async () => database?.dispose());

  it.each([
    ["created", "desc"],
    ["created", "asc"],
    ["total", "desc"],
    ["total", "asc"],
    ["status", "asc"],
    ["status", "desc"],
  ] as [ClaimSort, "asc" | "desc"][])("pages by %s %s: every claim exactly once, in order", async (sort, dir) => {
    const seen: { id: string; key: string | number }[] = [];
    let cursor: string | undefined;
    do {
      const page = await listClaims(database.db, { sort, dir, cursor, limit: 4, timeZone: TZ });
      seen.push(...page.rows.map((r) => ({ id: r.id, key: sort === "created" ? r.createdAt.getTime() : sort === "total" ? (r.totalMinor ?? -1) : r.status })));
      cursor = page.next;
    } while (cursor);
    expect(seen).toHaveLength(23);
    expect(new Set(seen.map((s) => s.id)).size).toBe(23);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!.key, seen[i]!.key];
      if (dir === "asc") expect(a <= b).toBe(true);
      else expect(a >= b).toBe(true);
    }
  });

  it("filters by status, patient, insurer and clinic-zone days; counts per status", async () => {
    expect((await listClaims(database.db, { status: "rejected", timeZone: TZ, limit: 100 })).rows).toHaveLength(2);
    const p1 = (await listClaims(database.db, { patient: "1000000001", timeZone: TZ, limit: 100 })).rows;
    expect(p1.length).toBe(8);
    const rimal = (await listClaims(database.db, { insurer: "payer-rimal", timeZone: TZ, limit: 100 })).rows;
    expect(rimal.every((r) => r.insurerId === "payer-rimal")).toBe(true);
    expect(rimal).toHaveLength(11);
    // 2026-01-10 20:xx UTC is 23:xx on 10 January in Riyadh: one day = one third of the claims.
    const day = (await listClaims(database.db, { from: "2026-01-10", to: "2026-01-10", timeZone: TZ, limit: 100 })).rows;
    expect(day).toHaveLength(8);
    // ...but in UTC+14 it is already the 11th.
    expect((await listClaims(database.db, { from: "2026-01-10", to: "2026-01-10", timeZone: "Pacific/Kiritimati", limit: 100 })).rows).toHaveLength(0);
    expect(await countClaimsByStatus(database.db, {}, TZ)).toEqual({ draft: 17, complete: 2, rejected: 2, sent: 2 });
    expect(await countClaimsByStatus(database.db, { patient: "1000000000", status: "draft" }, TZ)).toEqual({ draft: 6, complete: 2 });
  });

  it("finds duplicates of the same patient, date and items — not rejected ones, not drafts", async () => {
    const items = [{ code: "99213", servicedDate: "2026-01-10", quantity: "1" }];
    // Patient …0: n = 0 and 3 are complete with the same items (prices differ: not part of the key).
    const dupes = await findDuplicateClaims(database.db, { nationalId: "1000000000", items });
    expect(dupes.map((d) => d.id).sort()).toEqual([ids[0], ids[3]].sort());
    expect(await findDuplicateClaims(database.db, { nationalId: "1000000000", items: [{ ...items[0]!, quantity: "2" }] })).toEqual([]);
    expect(await findDuplicateClaims(database.db, { nationalId: "1000000000", items, excludeId: ids[0] })).toHaveLength(1);
    // Patient …2: the sent ones count; patient …1: only rejected ones and drafts → none.
    expect((await findDuplicateClaims(database.db, { nationalId: "1000000002", items })).map((d) => d.status)).toEqual(["sent", "sent"]);
    expect(await findDuplicateClaims(database.db, { nationalId: "1000000001", items })).toEqual([]);
  });

  it("reads a batch's progress from the database", async () => {
    const batch = "7a1f0c4e-1111-4222-8333-444455556666";
    for (const id of ids.slice(0, 5)) await patchSubmission(database.db, id, { form: sql`coalesce(${submissions.form}, '{}'::jsonb) || jsonb_build_object('batch', ${batch}::text)` });
    await patchSubmission(database.db, ids[3]!, { status: "queued" });
    const p = await batchProgress(database.db, batch);
    expect(p.total).toBe(5);
    expect(p.done).toBe(4); // complete, rejected, sent, rejected; the queued one not yet
  });
});

describe.each(testDatabases())("claims against the sandbox on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let relay: WebhookRelay;
  let worker: OutboxWorker;
  const secret = newWebhookSecret();
  const patient = (nid: string) => demoFormPatient(database.db, nid);

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, fetchTimeoutMs: 3000 };
    relay = await startWebhookRelay(relayDeps);
    sb = await startTestSandbox({ webhookUrl: relay.url, webhookSecret: secret, adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    relayDeps.client = client;
    worker = startOutboxWorker({ db: database.db, client, pollMs: 30, leaseMs: 10_000, maxAttempts: 3, backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 }, pollAfterMs: 1_000, log: () => {} });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await client?.close();
    await sb?.close();
    await relay?.close();
    await database?.dispose();
  });
  const deps = () => ({ db: database.db, providerOrgId: sb.config.providerOrgId });
  let care: Awaited<ReturnType<typeof professionalCare>>;
  beforeAll(async () => {
    care = await professionalCare(database.db);
  });
  const settled = (id: string) =>
    waitFor(async () => {
      const row = await getSubmission(database.db, id);
      return row && ["complete", "partial", "denied", "rejected", "failed"].includes(row.status) ? row : undefined;
    }, 20_000, `submission ${id} decided`);

  it("a rejected claim is in the work queue; fix and resubmit makes a new, linked claim with a new identifier", async () => {
    const p3 = await patient("1000000003"); // registered coverage the platform does not know → ERR-002
    const sent = await submitForm(deps(), billing, { use: "claim", ...p3, ...care, diagnoses: ["R51"], procedures: [], items: [{ code: "99213", servicedDate: today, quantity: "1", unitPrice: "250" }], attachmentIds: [] });
    if (!sent.ok) throw new Error(sent.error);
    const rejected = await settled(sent.id);
    expect(rejected.status).toBe("rejected");
    expect(rejected.errors?.[0]?.code).toBe("ERR-002");
    expect((await workQueue(database.db)).map((r) => r.id)).toContain(sent.id);

    const fixed = await fixRejectedClaim(deps(), billing, sent.id);
    if (!fixed.ok) throw new Error(fixed.error);
    expect(fixed.id).not.toBe(sent.id);
    const draft = await getSubmission(database.db, fixed.id);
    expect(draft).toMatchObject({ status: "draft", replacesId: sent.id, identifierValue: null });
    expect((await workQueue(database.db)).map((r) => r.id)).not.toContain(sent.id);
    expect((await replacementLinks(database.db, sent.id, null)).replacedBy.map((r) => r.id)).toEqual([fixed.id]);
    expect((await replacementLinks(database.db, fixed.id, sent.id)).replaces?.id).toBe(sent.id);
    // Resubmitted with another patient's coverage... here: change the patient to one with coverage.
    const p1 = await patient("1000000001");
    const re = await submitForm(deps(), billing, { use: "claim", ...p1, ...care, diagnoses: ["R51"], procedures: [], items: [{ code: "99213", servicedDate: today, quantity: "1", unitPrice: "250" }], attachmentIds: [] }, fixed.id);
    if (!re.ok) throw new Error(re.error);
    const after = await getSubmission(database.db, fixed.id);
    expect(after?.identifierValue).toBeTruthy();
    expect(after?.identifierValue).not.toBe(rejected.identifierValue);
    // The resubmission names the rejected claim (never held by the platform: identifier only).
    expect(after?.claim.related).toEqual([
      { claim: { identifier: { system: rejected.identifierSystem, value: rejected.identifierValue } }, relationship: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship", code: "prior" }] } },
    ]);
    expect((await settled(fixed.id)).status).toMatch(/complete|partial/);

    // Fix refuses anything but a rejected claim; retry only failed ones (same identifier).
    expect(await fixRejectedClaim(deps(), billing, fixed.id)).toEqual({ ok: false, error: "not_rejected" });
    expect(await retryClaim(deps(), billing, fixed.id)).toEqual({ ok: false, error: "not_failed" });
  }, 60_000);

  it("retry of a failed claim keeps its identifier; copy makes a new draft", async () => {
    const p1 = await patient("1000000001");
    const saved = await saveDraft(deps(), billing, { use: "claim", ...p1, ...care, diagnoses: ["R51"], procedures: [], items: [{ code: "85025", servicedDate: today, quantity: "2", unitPrice: "60" }], attachmentIds: [] });
    if (!saved.ok) throw new Error();
    const copy = await copyClaim(deps(), billing, saved.id);
    if (!copy.ok) throw new Error(copy.error);
    expect((await getSubmission(database.db, copy.id))?.form).toMatchObject({ items: [{ code: "85025", quantity: "2", unitPrice: "60" }] });
    // Force a failed state (as the outbox would after its attempts), then retry.
    await patchSubmission(database.db, copy.id, { status: "failed", identifierSystem: "urn:test", identifierValue: "keep-me-1" });
    expect(await retryClaim(deps(), billing, copy.id)).toEqual({ ok: true });
    const row = await getSubmission(database.db, copy.id);
    expect(row).toMatchObject({ status: "queued", identifierValue: "keep-me-1" });
    await patchSubmission(database.db, copy.id, { status: "cancelled", nextAttemptAt: null });
  }, 30_000);

  it("submit selected: duplicates wait for confirmation; progress from the database reaches the batch size", async () => {
    const p = await patient("2087654311");
    const drafts: string[] = [];
    for (let n = 0; n < 4; n++) {
      const d = await saveDraft(deps(), billing, { use: "claim", ...p, ...care, diagnoses: ["R51"], procedures: [], items: [{ code: "85025", servicedDate: today, quantity: String(n + 1), unitPrice: "60" }], attachmentIds: [] });
      if (!d.ok) throw new Error();
      drafts.push(d.id);
    }
    const incomplete = await saveDraft(deps(), billing, { use: "claim", ...p, ...care, diagnoses: [], items: [] });
    if (!incomplete.ok) throw new Error();
    const result = await submitBatch(deps(), billing, [...drafts, incomplete.id]);
    expect(result.submitted).toEqual(drafts);
    expect(result.invalid).toEqual([incomplete.id]);
    await waitFor(async () => {
      const pr = await batchProgress(database.db, result.batchId);
      return pr.total === 4 && pr.done === 4 ? pr : undefined;
    }, 20_000, "batch sent");
    for (const id of drafts) await settled(id);

    // The same items again for the same patient and day → a duplicate warning, sent only when confirmed.
    const again = await saveDraft(deps(), billing, { use: "claim", ...p, ...care, diagnoses: ["R51"], procedures: [], items: [{ code: "85025", servicedDate: today, quantity: "1", unitPrice: "60" }], attachmentIds: [] });
    if (!again.ok) throw new Error();
    expect((await draftDuplicates(database.db, again.id)).map((d) => d.id)).toEqual([drafts[0]]);
    const warned = await submitBatch(deps(), billing, [again.id]);
    expect(warned).toMatchObject({ submitted: [], duplicates: [again.id] });
    const confirmed = await submitBatch(deps(), billing, [again.id], { confirmDuplicates: true, batchId: warned.batchId });
    expect(confirmed.submitted).toEqual([again.id]);
    expect((await batchProgress(database.db, warned.batchId)).total).toBe(1);
  }, 60_000);

  it("reconciles the platform's claims (endpoint 5) with the portal's: same, amount differs, unknown", async () => {
    const mine = await database.db.select().from(submissions).where(eq(submissions.patientNationalId, "2087654311"));
    for (const row of mine) if (row.status !== "draft") await settled(row.id);
    const found = await client.searchClaims({ patient: "2087654311", createdOnOrAfter: today });
    const claims = (found.data.entry ?? []).map((e) => e.resource as unknown as Record<string, unknown>);
    expect(claims.length).toBeGreaterThanOrEqual(5);
    const rows = await reconcile(database.db, claims);
    expect(rows.every((r) => r.portal)).toBe(true);
    expect(rows.filter((r) => r.problems.length)).toEqual([]);

    const victim = rows[0]!;
    await patchSubmission(database.db, victim.portal!.id, { totalMinor: 1 });
    const other = rows[1]!;
    await patchSubmission(database.db, other.portal!.id, { platformId: null, identifierValue: null, identifierSystem: null });
    const again = await reconcile(database.db, claims);
    expect(again.find((r) => r.platformId === victim.platformId)?.problems).toEqual(["amount"]);
    expect(again.find((r) => r.platformId === other.platformId)?.problems).toEqual(["unknown"]);
  }, 30_000);
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveEvents, submissionEvents, submissions } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { parsePipelineConfig } from "./config";
import { claimTotalMinor, responseView } from "@/lib/submissions";
import { decisionOf } from "@/lib/submissions";
import { IllegalTransitionError, StaleSubmissionError, TRANSITIONS, canTransition } from "@/lib/submissions";
import { transition } from "@/lib/submissions/states";
import { createDraft, queue, retrySubmission, submissionTimeline } from "@/lib/submissions";
import { buildClaim } from "./testing/harness";
import { CLAIM_IDENTIFIER_SYSTEM_BASE } from "@/lib/submissions";

describe("state machine (pure)", () => {
  it("allows the design's moves and nothing out of a final state", () => {
    expect(canTransition("draft", "queued")).toBe(true);
    expect(canTransition("queued", "sent")).toBe(true);
    expect(canTransition("sent", "pended")).toBe(true);
    expect(canTransition("pended", "complete")).toBe(true);
    expect(canTransition("sent", "rejected")).toBe(true);
    expect(canTransition("failed", "queued")).toBe(true);
    expect(canTransition("complete", "pended")).toBe(false);
    expect(canTransition("pended", "sent")).toBe(false);
    expect(canTransition("draft", "sent")).toBe(false);
    for (const s of ["rejected", "cancelled"] as const) expect(TRANSITIONS[s]).toEqual([]);
    // Decision 097: a decision is left only by the payer's reissue (another decision) or a cancellation.
    for (const s of ["complete", "partial", "denied"] as const) expect([...TRANSITIONS[s]].sort()).toEqual(["cancelled", "complete", "denied", "partial"]);
  });

  it("sums money exactly in minor units", () => {
    const claim = buildClaim({ use: "claim", items: [{ code: "a", price: 0.1, quantity: 3 }, { code: "b", price: 0.2 }, { code: "c", price: 2500.55, quantity: 2 }] });
    expect(claimTotalMinor(claim)).toEqual({ totalMinor: 30 + 20 + 500110, currency: "SAR" });
    expect(claimTotalMinor(buildClaim({ use: "claim", items: [{ code: "a", price: 1.005 }] }))).toBeUndefined();
  });

  it("reads its configuration from the environment with defaults and refuses bad values", () => {
    const c = parsePipelineConfig({ OUTBOX_MAX_ATTEMPTS: "3", POLL_AFTER_MS: "" });
    expect(c.maxAttempts).toBe(3);
    expect(c.pollAfterMs).toBe(60_000);
    expect(c.concurrency).toBe(8);
    expect(() => parsePipelineConfig({ OUTBOX_LEASE_MS: "soon" })).toThrow(/OUTBOX_LEASE_MS/);
  });

  it("reads decisions from ClaimResponses", () => {
    const ext = (code: string) => [{ url: "https://platform.example/fhir/StructureDefinition/claim-processing-status", valueCode: code }];
    const base = {
      resourceType: "ClaimResponse",
      status: "active",
      type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "professional" }] },
      use: "claim",
      patient: { reference: "Patient/1000000001" },
      insurer: { reference: "Organization/payer-rimal" },
      created: "2026-01-01",
      outcome: "complete",
    } as const;
    expect(decisionOf(responseView({ ...base, extension: ext("denied") } as never))).toBe("denied");
    expect(decisionOf(responseView({ ...base, extension: ext("queued"), outcome: "queued" } as never))).toBeUndefined();
    expect(decisionOf(responseView({ ...base, outcome: "partial" } as never))).toBe("partial");
    expect(decisionOf(responseView({ ...base } as never))).toBe("complete");
    expect(decisionOf(responseView({ ...base, outcome: "error", error: [{ code: { coding: [{ code: "a001" }] } }] } as never))).toBe("rejected");
    // Not valid R4 (no insurer): no decision is read from it.
    expect(decisionOf(responseView({ ...base, insurer: undefined, extension: ext("denied") } as never))).toBeUndefined();
  });
});

describe.each(testDatabases())("submissions on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());

  it("creates a draft, queues it once with a fixed identifier, and records every step", async () => {
    const db = database.db;
    const draft = await createDraft({ db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }] }) });
    expect(draft.status).toBe("draft");
    expect(draft.totalMinor).toBe(25000);
    const queued = await queue({ db }, draft.id);
    expect(queued.status).toBe("queued");
    expect(queued.identifierSystem).toBe(`${CLAIM_IDENTIFIER_SYSTEM_BASE}/clinic-001`);
    expect(queued.identifierValue).toMatch(/^[0-9a-f-]{36}$/);
    expect((queued.claim.identifier as { value: string }[])[0]!.value).toBe(queued.identifierValue);
    expect(queued.nextAttemptAt).toBeInstanceOf(Date);
    await expect(queue({ db }, draft.id)).rejects.toBeInstanceOf(IllegalTransitionError);
    const timeline = await submissionTimeline(db, draft.id);
    expect(timeline.map((t) => [t.fromStatus, t.toStatus, t.source])).toEqual([
      [null, "draft", "user"],
      ["draft", "queued", "user"],
    ]);
    const live = await db.select().from(liveEvents).where(eq(liveEvents.submissionId, draft.id));
    expect(live.map((l) => l.status)).toEqual(["draft", "queued"]);
    expect(live[0]!.audience).toEqual(["billing", "manager"]);
    expect(JSON.stringify(live)).not.toContain("1000000001");
  });

  it("rejects illegal and stale transitions without changing anything", async () => {
    const db = database.db;
    const draft = await createDraft({ db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }] }) });
    await expect(db.transaction((tx) => transition(tx, draft, "complete", "system"))).rejects.toBeInstanceOf(IllegalTransitionError);
    await queue({ db }, draft.id);
    // The caller still believes it is a draft: the optimistic check refuses.
    await expect(db.transaction((tx) => transition(tx, draft, "queued", "system"))).rejects.toBeInstanceOf(StaleSubmissionError);
    const [row] = await db.select().from(submissions).where(eq(submissions.id, draft.id));
    expect(row!.status).toBe("queued");
    const events = await db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, draft.id));
    expect(events).toHaveLength(2);
    const live = await db.select().from(liveEvents).where(eq(liveEvents.submissionId, draft.id));
    expect(live[0]!.audience).toEqual(["front_desk", "billing", "manager"]);
  });

  it("retries a failed submission with the same identifier", async () => {
    const db = database.db;
    const draft = await createDraft({ db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }] }) });
    const queued = await queue({ db }, draft.id);
    await db.transaction((tx) => transition(tx, queued, "failed", "system", { reason: "server" }, { errors: [{ status: 503 }], nextAttemptAt: null }));
    const again = await retrySubmission({ db }, draft.id);
    expect(again.status).toBe("queued");
    expect(again.identifierValue).toBe(queued.identifierValue);
    expect(again.attempts).toBe(0);
    expect(again.errors).toBeNull();
    await expect(retrySubmission({ db }, draft.id)).rejects.toBeInstanceOf(IllegalTransitionError);
  });
});

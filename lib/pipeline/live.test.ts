import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { testDatabases } from "@/lib/testing/databases";
import { LiveHub, liveEventStream, pruneLiveEvents, type LiveEvent } from "./live";
import { createDraft, queue } from "@/lib/submissions";
import { buildClaim, waitFor } from "./testing/harness";

vi.mock("@/lib/auth/guards", () => ({ currentUser: vi.fn(async () => null) }));

const claimDraft = (db: Parameters<typeof createDraft>[0]["db"]) =>
  createDraft({ db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }] }) });
const authDraft = (db: Parameters<typeof createDraft>[0]["db"]) =>
  createDraft({ db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }] }) });

describe.each(testDatabases())("live events on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let hub: LiveHub;
  beforeAll(async () => {
    database = await target.open();
    hub = new LiveHub(database, { fallbackPollMs: 60_000 });
  });
  afterAll(async () => {
    await hub?.close();
    await database?.dispose();
  });

  it("delivers each change once, only to the roles in its audience, through LISTEN/NOTIFY", async () => {
    const billing: LiveEvent[] = [];
    const frontDesk: LiveEvent[] = [];
    const offB = await hub.subscribe(["billing"], undefined, (e) => billing.push(e));
    const offF = await hub.subscribe(["front_desk"], undefined, (e) => frontDesk.push(e));
    const claim = await claimDraft(database.db);
    await queue({ db: database.db }, claim.id);
    const auth = await authDraft(database.db);
    // No polling here (fallback is 60 s): only the notification can bring these.
    await waitFor(async () => billing.length >= 3 && frontDesk.length >= 1, 20_000, "notified events");
    await new Promise((r) => setTimeout(r, 100));
    expect(billing.map((e) => [e.submissionId, e.status])).toEqual([
      [claim.id, "draft"],
      [claim.id, "queued"],
      [auth.id, "draft"],
    ]);
    expect(frontDesk.map((e) => e.submissionId)).toEqual([auth.id]);
    expect(JSON.stringify(billing)).not.toContain("1000000001");
    offB();
    offF();
  });

  it("replays what a reconnecting browser missed (Last-Event-ID) over SSE, then goes live", async () => {
    const first = await claimDraft(database.db);
    const firstEventId = (await hubEvents(first.id))[0]!.id;
    const missed = await claimDraft(database.db);
    const abort = new AbortController();
    const response = liveEventStream({ hub, roles: ["manager"], lastEventId: String(firstEventId), signal: abort.signal, heartbeatMs: 50 });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    let text = "";
    const live = await (async () => {
      const readUntil = async (pred: () => boolean) => {
        while (!pred()) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
      };
      await readUntil(() => text.includes(missed.id));
      const later = await authDraft(database.db);
      await readUntil(() => text.includes(later.id) && text.includes(": ping"));
      return later;
    })();
    abort.abort();
    expect(text).not.toContain(`"submissionId":"${first.id}"`);
    expect(text).toMatch(new RegExp(`id: \\d+\\nevent: submission.status\\ndata: .*"submissionId":"${missed.id}"`));
    expect(text).toContain(live.id);
    await waitFor(async () => hub.size === 0, 10_000, "the subscription to be released");
  });

  it("prunes old events", async () => {
    const removed = await pruneLiveEvents(database, new Date(Date.now() + 60_000));
    expect(removed).toBeGreaterThan(0);
  });

  if (target.name === "postgres") {
    it("fans out across portal instances: a change written by one is delivered by another", async () => {
      const other = await openDatabase({ kind: "postgres", url: database.url!, poolSize: 2 });
      const otherHub = new LiveHub(other, { fallbackPollMs: 60_000 });
      try {
        const got: LiveEvent[] = [];
        const off = await otherHub.subscribe(["billing"], undefined, (e) => got.push(e));
        const claim = await claimDraft(database.db);
        await waitFor(async () => got.some((e) => e.submissionId === claim.id), 20_000, "cross-instance event");
        off();
      } finally {
        await otherHub.close();
        await other.close();
      }
    });
  }

  async function hubEvents(submissionId: string): Promise<LiveEvent[]> {
    const got: LiveEvent[] = [];
    const off = await hub.subscribe(["billing"], 0, (e) => {
      if (e.submissionId === submissionId) got.push(e);
    });
    off();
    return got;
  }
});

describe("GET /api/events", () => {
  it("answers 401 to a visitor who is not signed in", async () => {
    const { GET } = await import("@/app/api/events/route");
    const res = await GET(new Request("http://portal/api/events"));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "unauthenticated" });
  });
});

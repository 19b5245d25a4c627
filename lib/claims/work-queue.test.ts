import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { auditEvents, insurerFilingWindows, insurers, users } from "@/lib/db/schema";
import { deadlineFrom } from "@/lib/deadlines";
import { insertSubmissions } from "@/lib/submissions/testing";
import { testDatabases } from "@/lib/testing/databases";
import { addWorkNote, assignWork, compareWork, rankedWorkQueue, scoreOf, workQueueCsv, WORK_QUEUE_CSV_KEYS, type WorkItem } from "./work-queue";

/* The work queue ranked to earn money first, with assignment, notes and its CSV (docs/decisions/080). */

describe("the CSV: names that look like formulas stay text, amounts stay numbers (docs/decisions/094)", () => {
  it("neutralises an insurer id, a reason and an assignee's name; a negative amount is still a number", () => {
    const item: WorkItem = {
      id: "c1", status: "denied", action: "appeal", insurerId: "-2+3+cmd|' /C calc'!A0", patientNationalId: "p1", updatedAt: new Date(0), atStakeMinor: -1250, currency: "SAR",
      reason: "=HYPERLINK(\"http://evil.example\")", family: "@SUM(A1)", deadline: undefined, score: 0, assignee: { id: "u1", name: "+966 Basma" }, notes: [], errors: null,
    };
    const line = workQueueCsv([item], [...WORK_QUEUE_CSV_KEYS]).trimEnd().split("\r\n")[1];
    expect(line).toBe(`1,c1,denied,appeal,'-2+3+cmd|' /C calc'!A0,-12.50,SAR,,,,"'=HYPERLINK(""http://evil.example"")",'@SUM(A1),'+966 Basma`);
  });
});

describe("rank: money at stake per day left", () => {
  it("1,000 due tomorrow before 3,000 due in a month; missed deadlines last, by money", () => {
    const today = "2026-11-25";
    const tomorrow = deadlineFrom("appeal", "2026-10-27", 30, today); // due 11-26: 1 day left
    const month = deadlineFrom("appeal", "2026-11-25", 30, today); // 30 days left
    const missed = deadlineFrom("appeal", "2026-10-01", 30, today);
    expect(scoreOf(100_000, tomorrow)).toBe(50_000);
    expect(Math.round(scoreOf(300_000, month))).toBe(9_677);
    expect(scoreOf(900_000, missed)).toBe(-1);
    const at = new Date("2026-11-20T00:00:00Z");
    const items = [
      { id: "a", score: scoreOf(300_000, month), atStakeMinor: 300_000, updatedAt: at },
      { id: "b", score: scoreOf(100_000, tomorrow), atStakeMinor: 100_000, updatedAt: at },
      { id: "c", score: -1, atStakeMinor: 900_000, updatedAt: at },
      { id: "d", score: -1, atStakeMinor: 5_000, updatedAt: at },
    ];
    expect(items.sort(compareWork).map((i) => i.id)).toEqual(["b", "a", "c", "d"]);
  });
});

const line = (seq: number, decision: "denied" | "partly-approved", submitted: number, benefit: number, reason: string) => ({
  kind: "item",
  sequence: seq,
  decision,
  amounts: { submitted: { value: submitted / 100, minor: submitted, currency: "SAR" }, benefit: { value: benefit / 100, minor: benefit, currency: "SAR" } },
  reasons: [{ system: "http://nphies.sa/terminology/CodeSystem/adjudication-reason", code: reason }],
});

describe.each(testDatabases())("the work queue on $name", (target) => {
  it("ranks refused, failed and appealable claims; assigns in bulk, filters, keeps notes; CSV as data", async () => {
    const database = await target.open();
    try {
      const db = database.db;
      const now = Date.now();
      const daysAgo = (n: number) => new Date(now - n * 86_400_000);
      const [biller] = await db.insert(users).values({ email: "biller@clinic.example", name: "Basma Biller", passwordHash: "x", roles: ["billing"] }).returning();
      const [other] = await db.insert(users).values({ email: "desk@clinic.example", name: "Front Desk", passwordHash: "x", roles: ["front_desk"] }).returning();
      await db.insert(insurers).values({ id: "payer-short", nameEn: "Short", nameAr: "قصير" });
      await db.insert(insurerFilingWindows).values({ insurerId: "payer-short", submissionDays: 90, resubmissionDays: 10, updatedBy: "admin" });
      const claim = { resourceType: "Claim", item: [{ sequence: 1, productOrService: { coding: [{ code: "70553" }] } }, { sequence: 2, productOrService: { coding: [{ code: "85025" }] } }] };
      const rows = await insertSubmissions(db, [
        // Denied 2,500.00 + cut 20.00, decided 2 days ago, 30-day window (28 days left): 2,520 / 29 a day.
        { kind: "claim", status: "partial", patientNationalId: "1000000001", insurerId: "payer-a", claim, responseView: { decision: "partial", items: [line(1, "denied", 250_000, 0, "preauth-required"), line(2, "partly-approved", 8_000, 6_000, "price-list")] }, totalMinor: 258_000, currency: "SAR", decidedAt: daysAgo(2), updatedAt: daysAgo(2) },
        // Denied 400.00, 10-day window decided 8 days ago (2 left): 400 / 3 a day.
        { kind: "claim", status: "denied", patientNationalId: "1000000002", insurerId: "payer-short", claim, responseView: { decision: "denied", items: [line(1, "denied", 40_000, 0, "ar001")] }, totalMinor: 40_000, currency: "SAR", decidedAt: daysAgo(8), updatedAt: daysAgo(8) },
        // Window over (decided 20 days ago, 10-day window): not in the queue.
        { kind: "claim", status: "denied", patientNationalId: "1000000002", insurerId: "payer-short", claim, responseView: { decision: "denied", items: [line(1, "denied", 99_900, 0, "ar001")] }, totalMinor: 99_900, currency: "SAR", decidedAt: daysAgo(20), updatedAt: daysAgo(20) },
        // Refused by the platform today: its total at stake, 30 days to resubmit.
        { kind: "claim", status: "rejected", patientNationalId: "1000000003", insurerId: "payer-a", claim, totalMinor: 15_000, currency: "SAR", errors: [{ code: "ERR-003" }] },
        // Paid in full: nothing to do.
        { kind: "claim", status: "complete", patientNationalId: "1000000003", insurerId: "payer-a", claim, responseView: { decision: "complete", items: [] }, totalMinor: 15_000, currency: "SAR" },
      ]);
      const [partial, denied, expired, rejected] = rows.map((r) => r.id);
      // An appeal already filed for a claim takes it out of the queue.
      const [appealed] = await insertSubmissions(db, [{ kind: "claim", status: "denied", patientNationalId: "1000000004", insurerId: "payer-a", claim, responseView: { decision: "denied", items: [line(1, "denied", 70_000, 0, "ar001")] }, totalMinor: 70_000, currency: "SAR", decidedAt: daysAgo(1), updatedAt: daysAgo(1) }]);
      await insertSubmissions(db, [{ kind: "claim", status: "queued", patientNationalId: "1000000004", insurerId: "payer-a", claim, appealOfId: appealed!.id }]);

      const today = new Date(now).toISOString().slice(0, 10);
      const queue = await rankedWorkQueue(db, { today, timeZone: "UTC" });
      expect(queue.map((i) => [i.id, i.action, i.atStakeMinor, i.deadline?.kind, i.deadline?.daysLeft])).toEqual([
        [denied, "appeal", 40_000, "appeal", 2],
        [partial, "appeal", 252_000, "appeal", 28],
        [rejected, "fix", 15_000, "resubmission", 30],
      ]);
      expect(queue.map((i) => i.id)).not.toContain(expired);
      expect(queue[1]).toMatchObject({ reason: "preauth-required", family: "AD" });

      const caller: Caller = { actor: { kind: "user", id: biller!.id, email: biller!.email, roles: ["billing"] }, userId: biller!.id, userName: biller!.name, requestId: randomUUID() };
      expect(await assignWork(db, caller, [partial!, denied!], other!.id)).toEqual({ ok: false, error: "assignee_unknown" });
      expect(await assignWork(db, caller, [randomUUID()], biller!.id)).toEqual({ ok: false, error: "not_found" });
      expect(await assignWork(db, caller, [partial!, denied!], biller!.id)).toEqual({ ok: true, changed: 2 });
      expect(await addWorkNote(db, caller, partial!, "Called the payer; appeal with the ED referral.")).toEqual({ ok: true, changed: 1 });
      const mine = await rankedWorkQueue(db, { today, timeZone: "UTC", userId: biller!.id, assignee: "mine" });
      expect(mine.map((i) => i.id)).toEqual([denied, partial]);
      expect(mine[1]!.assignee).toEqual({ id: biller!.id, name: "Basma Biller" });
      expect(mine[1]!.notes.map((n) => [n.body, n.authorId])).toEqual([["Called the payer; appeal with the ED referral.", "Basma Biller"]]);
      expect((await rankedWorkQueue(db, { today, timeZone: "UTC", assignee: "unassigned" })).map((i) => i.id)).toEqual([rejected]);
      await assignWork(db, caller, [denied!], null);
      expect((await rankedWorkQueue(db, { today, timeZone: "UTC", userId: biller!.id, assignee: "mine" })).map((i) => i.id)).toEqual([partial]);
      const audited = await db.select({ action: auditEvents.action }).from(auditEvents);
      expect(audited.map((a) => a.action).filter((a) => a.startsWith("claim.work"))).toEqual(["claim.work_assign", "claim.work_note", "claim.work_assign"]);

      const csv = workQueueCsv(queue, [...WORK_QUEUE_CSV_KEYS]);
      const lines = csv.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
      expect(lines[0]).toBe(WORK_QUEUE_CSV_KEYS.join(","));
      expect(lines[1]).toBe(`1,${denied},denied,appeal,payer-short,400.00,SAR,appeal,${queue[0]!.deadline!.due},2,ar001,CV,`);
      expect(lines[2]).toContain(",2520.00,SAR,appeal,");
    } finally {
      await database.dispose();
    }
  });
});

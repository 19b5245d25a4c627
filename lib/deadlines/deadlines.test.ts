import { describe, expect, it } from "vitest";
import { informationRequests, insurers } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { addDaysTo, deadlineFrom, earliestServiceDate } from "./deadline";
import { claimsAtRisk, deadlinesFor, listInsurerSettings, saveInsurer } from "./queries";
import { insertSubmissions } from "@/lib/submissions/testing";

describe("deadline arithmetic", () => {
  it("counts clinic days to the last day, warns from 7 days, marks missed ones", () => {
    expect(deadlineFrom("submission", "2026-01-01", 90, "2026-03-20")).toEqual({ kind: "submission", due: "2026-04-01", daysLeft: 12, level: "ok" });
    expect(deadlineFrom("submission", "2026-01-01", 90, "2026-03-25")).toMatchObject({ daysLeft: 7, level: "soon" });
    expect(deadlineFrom("submission", "2026-01-01", 90, "2026-04-01")).toMatchObject({ daysLeft: 0, level: "soon" });
    expect(deadlineFrom("resubmission", "2026-01-01", 30, "2026-02-01")).toMatchObject({ due: "2026-01-31", daysLeft: -1, level: "overdue" });
    expect(addDaysTo("2028-02-28", 1)).toBe("2028-02-29");
    expect(earliestServiceDate({ item: [{ servicedDate: "2026-03-02" }, { servicedDate: "2026-02-27" }, { servicedDate: "bad" }] })).toBe("2026-02-27");
    expect(earliestServiceDate({})).toBeUndefined();
  });
});

describe.each(testDatabases())("filing deadlines on $name", (target) => {
  it("per-insurer windows (defaults when unset), countdowns of open claims and the at-risk count", async () => {
    const database = await target.open();
    try {
      const db = database.db;
      const today = "2026-11-23";
      await db.insert(insurers).values([
        { id: "payer-a", nameEn: "A", nameAr: "أ" },
        { id: "payer-b", nameEn: "B", nameAr: "ب" },
      ]);
      const claim = (insurerId: string, status: "draft" | "rejected" | "complete" | "failed", served: string) =>
        insertSubmissions(db, { kind: "claim", status, insurerId, patientNationalId: "1000000001", claim: { resourceType: "Claim", item: [{ sequence: 1, servicedDate: served }] } })
          .then((r) => r[0]!.id);
      const soon = await claim("payer-a", "draft", "2026-08-28"); // default 90 days → due 2026-11-26, 3 days left
      const fine = await claim("payer-a", "draft", "2026-11-01");
      const done = await claim("payer-a", "complete", "2026-01-01"); // sent: no deadline
      const late = await claim("payer-b", "failed", "2026-08-01");
      const rejected = await claim("payer-b", "rejected", "2026-11-01");

      let map = await deadlinesFor(db, [soon, fine, done, late, rejected], today, "UTC");
      expect(map.get(soon)).toMatchObject({ kind: "submission", due: "2026-11-26", daysLeft: 3, level: "soon" });
      expect(map.get(fine)?.level).toBe("ok");
      expect(map.has(done)).toBe(false);
      expect(map.get(late)?.level).toBe("overdue");
      expect(map.get(rejected)?.kind).toBe("resubmission");
      expect(await claimsAtRisk(db, today, "UTC")).toEqual([
        { insurerId: "payer-a", soon: 1, overdue: 0 },
        { insurerId: "payer-b", soon: 0, overdue: 1 },
      ]);

      // A sent claim the payer asked about: due by the request's own date (the earliest open one),
      // in the clinic's day; answered requests and undated ones set no deadline.
      const asked = await claim("payer-b", "complete", "2026-11-10");
      const answeredToo = await claim("payer-b", "complete", "2026-11-10");
      const request = (submissionId: string, dueAt: Date | null, status: "open" | "answered" = "open") =>
        db.insert(informationRequests).values({ platformRequestId: `cr-${Math.random()}`, submissionId, status, asks: ["Lab report"], attachmentTypes: [], dueAt, raw: {} });
      await request(asked, new Date("2026-11-30T21:30:00Z")); // 2026-12-01 in Riyadh: 8 days, fine on its own
      await request(asked, new Date("2026-11-24T22:00:00Z")); // 2026-11-25 in Riyadh: 2 days left
      await request(asked, null);
      await request(answeredToo, new Date("2026-11-20T10:00:00Z"), "answered");
      const withRequests = await deadlinesFor(db, [asked, answeredToo, rejected], today, "Asia/Riyadh");
      expect(withRequests.get(asked)).toEqual({ kind: "information", due: "2026-11-25", daysLeft: 2, level: "soon" });
      expect(withRequests.has(answeredToo)).toBe(false);
      expect(withRequests.get(rejected)?.kind).toBe("resubmission");
      // A rejected claim with an overdue information request: the more urgent one shows.
      await request(rejected, new Date("2026-11-20T10:00:00Z"));
      expect((await deadlinesFor(db, [rejected], today, "UTC")).get(rejected)).toMatchObject({ kind: "information", level: "overdue" });
      expect(await claimsAtRisk(db, today, "UTC")).toEqual([
        { insurerId: "payer-b", soon: 1, overdue: 2 },
        { insurerId: "payer-a", soon: 1, overdue: 0 },
      ]);
      await db.delete(informationRequests);

      // Administrators widen payer-a's window: nothing at risk there any more.
      await saveInsurer(db, { id: "payer-a", nameEn: "A Insurance", nameAr: "أ للتأمين", license: "7000000999", active: true, submissionDays: 120, resubmissionDays: 15 }, "admin-1");
      map = await deadlinesFor(db, [soon], today, "UTC");
      expect(map.get(soon)).toMatchObject({ level: "ok", due: "2026-12-26" });
      const settings = await listInsurerSettings(db);
      expect(settings.find((s) => s.id === "payer-a")).toMatchObject({ nameEn: "A Insurance", license: "7000000999", configured: true, windows: { submissionDays: 120, resubmissionDays: 15 } });
      expect(settings.find((s) => s.id === "payer-b")).toMatchObject({ configured: false, windows: { submissionDays: 90, resubmissionDays: 30 } });
      expect((await saveInsurer(db, { id: "payer-new", nameEn: "New", nameAr: "جديد", license: null, active: false, submissionDays: 60, resubmissionDays: 10 }, "admin-1")).created).toBe(true);
    } finally {
      await database.dispose();
    }
  });
});

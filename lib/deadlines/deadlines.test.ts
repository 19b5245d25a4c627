import { describe, expect, it } from "vitest";
import { insurers, submissions } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { addDaysTo, deadlineFrom, earliestServiceDate } from "./deadline";
import { claimsAtRisk, deadlinesFor, listInsurerSettings, saveInsurer } from "./queries";

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
        db
          .insert(submissions)
          .values({ kind: "claim", status, insurerId, patientId: "1000000001", claim: { resourceType: "Claim", item: [{ sequence: 1, servicedDate: served }] } })
          .returning({ id: submissions.id })
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

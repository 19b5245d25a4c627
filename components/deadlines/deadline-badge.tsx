"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { Deadline } from "@/lib/deadlines/browser";

/**
 * A claim's filing-deadline countdown: quiet while far, amber from 7 days, red once missed. The
 * full date is in the title and, when warned, spelled out for screen readers.
 */
export function DeadlineBadge({ deadline }: { deadline: Deadline }) {
  const t = useTranslations("deadlines");
  const format = useFormatter();
  const date = format.dateTime(new Date(`${deadline.due}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  const information = deadline.kind === "information";
  const text =
    deadline.level === "overdue"
      ? t(information ? "overdueInformation" : "overdue", { date })
      : t(information ? "countdownInformation" : deadline.kind === "resubmission" ? "countdownResubmit" : deadline.kind === "appeal" ? "countdownAppeal" : "countdown", { days: deadline.daysLeft });
  const tone = deadline.level === "overdue" ? "bg-red-50 text-red-800 ring-red-200" : deadline.level === "soon" ? "bg-amber-50 text-amber-900 ring-amber-300" : "bg-slate-50 text-slate-600 ring-slate-200";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}
      title={t("due", { date })}
      data-testid="deadline-badge"
      data-level={deadline.level}
      data-kind={deadline.kind}
      data-days={deadline.daysLeft}
    >
      {deadline.level !== "ok" && <span aria-hidden>⚠</span>}
      {text}
    </span>
  );
}

import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import type { InformationRequestRow } from "@/lib/information-requests";
import { AnswerForm } from "./answer-form";

/**
 * Information requests as cards: what the payer asks, the documents it wants, the due date
 * (overdue ones highlighted), the state, our answer — and the answer form while open.
 */
export async function InformationRequestList({
  rows,
  showSubmission = true,
  canAnswer,
  collapsed = false,
}: {
  rows: InformationRequestRow[];
  showSubmission?: boolean;
  canAnswer: (row: InformationRequestRow) => boolean;
  /** The work queue: each answer form opens on demand, so the list stays scannable. */
  collapsed?: boolean;
}) {
  const t = await getTranslations("informationRequests");
  const format = await getFormatter();
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });
  if (rows.length === 0) return <p className="text-sm text-slate-600">{t("empty")}</p>;
  return (
    <ul className="space-y-4" data-testid="information-requests">
      {rows.map((r) => (
        <li
          key={r.id}
          data-testid="information-request"
          data-state={r.status}
          data-overdue={r.overdue || undefined}
          className={`rounded-lg border p-4 text-sm ${r.overdue ? "border-red-300 bg-red-50" : "border-slate-200 bg-white"}`}
        >
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="space-y-1">
              {showSubmission && (
                <p className="font-medium text-slate-900">
                  <Link className="text-brand-800 underline underline-offset-2" href={`/${r.submissionKind === "claim" ? "claims" : "authorizations"}/${r.submissionId}`}>
                    {t("openSubmission", { kind: t(`kind.${r.submissionKind}`) })}
                  </Link>
                  {r.patientName && <span className="ms-2 font-normal text-slate-600">{r.patientName}</span>}
                </p>
              )}
              <p className="text-xs text-slate-600">{t("received", { date: when(r.receivedAt) })}</p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {r.overdue && (
                <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white" data-testid="overdue-badge">
                  {t("overdue")}
                </span>
              )}
              <span className="rounded-full border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-800" data-testid="request-state">
                {t(`state.${r.status}`)}
              </span>
              <span className={`text-xs tabular-nums ${r.overdue ? "font-semibold text-red-800" : "text-slate-700"}`}>
                {t("col.due")}: {r.dueAt ? <time dateTime={r.dueAt.toISOString()}>{when(r.dueAt)}</time> : t("noDue")}
              </span>
            </div>
          </div>
          <div className="mt-3 space-y-1">
            {r.asks.map((a, i) => (
              // The payer's own words, in whatever language it wrote them: their own direction.
              <p key={i} dir="auto" className="text-start text-slate-900" data-testid="request-asks">
                {a}
              </p>
            ))}
            {r.attachmentTypes.length > 0 && <p className="text-slate-700">{t("documents", { list: r.attachmentTypes.join(" · ") })}</p>}
          </div>
          {r.status !== "open" && (
            <div className="mt-3 rounded-md bg-slate-50 p-3">
              <p className="text-xs text-slate-600">
                {r.answeredAt && t("answeredOn", { date: when(r.answeredAt) })}
                {r.acknowledgedAt && ` · ${t("acknowledgedOn", { date: when(r.acknowledgedAt) })}`}
              </p>
              {r.answerText && (
                <p className="mt-1 text-slate-900">
                  <span className="sr-only">{t("yourAnswer")}: </span>
                  <bdi>{r.answerText}</bdi>
                </p>
              )}
            </div>
          )}
          {r.status === "open" && canAnswer(r) &&
            (collapsed ? (
              <details className="mt-4 border-t border-slate-200 pt-3" data-testid="answer-details">
                <summary className="cursor-pointer font-medium text-brand-800">{t("answer.title")}</summary>
                <div className="mt-3">
                  <AnswerForm id={r.id} />
                </div>
              </details>
            ) : (
              <div className="mt-4 border-t border-slate-200 pt-3">
                <h3 className="mb-2 font-medium text-slate-900">{t("answer.title")}</h3>
                <AnswerForm id={r.id} />
              </div>
            ))}
        </li>
      ))}
    </ul>
  );
}

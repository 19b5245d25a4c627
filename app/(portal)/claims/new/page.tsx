import type { Metadata } from "next";
import { PlatformWordsText } from "@/components/claims/platform-words";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { stoppedBeforeSending } from "@/components/claims/platform-errors";
import { DecisionTable } from "@/components/authorizations/decision-table";
import { LazyDeadlineBadge, LazyLiveRefresh } from "@/components/claims/lazy-parts";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { SubmissionForm } from "@/components/authorizations/submission-form";
import { DuplicateWarning } from "@/components/claims/duplicate-warning";
import { FixingNotice } from "@/components/claims/fixing-notice";
import { Card, PageHeader } from "@/components/ui/card";
import { loadDraftForForm, getSubmissionView, submissionFormOptions } from "@/lib/submissions";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { clinicToday } from "@/lib/time";
import { authorizationUsage } from "@/lib/authorization-usage";
import { deadlinesFor } from "@/lib/deadlines";
import { env } from "@/lib/env";
import { errorWords, outcomeOfView } from "@/lib/i18n";
import { formatMoney } from "@/lib/money";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("authorizations"))("claim.title") };
}

/**
 * The claim form: a new claim, a draft (`?draft=`),
 * e.g. one made from a prior authorization, or the confirmation of a submitted claim
 * (`?submitted=`) with its live status.
 */
export default staffPage("claims", async function NewClaimPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const { user } = staff;
  const { draft, submitted } = await searchParams;
  const t = await getTranslations("authorizations");
  const locale = await getLocale();
  const db = staff.db;

  if (typeof submitted === "string") {
    const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.submission], submissionId: submitted });
    const view = await getSubmissionView(db, submitted, "claim");
    const viewKey = await staff.audit({ action: "claim.view", target: { type: "submission", id: view?.submission.id ?? "unknown" }, outcome: view ? "success" : "failure" });
    if (view) {
      const s = view.submission;
      // Refused: say so, why (the platform's words), and where to fix it — not "in the outbox".
      const refused = s.status === "rejected" || s.status === "failed";
      const first = s.errors?.[0];
      const reason = refused && first ? errorWords(first, locale) : undefined;
      return (
        <>
          <PageHeader
            title={t("claim.submittedTitle")}
            actions={
              <div className="flex flex-col items-end gap-1">
                <StatusBadge status={s.status} kind="claim" outcome={outcomeOfView(s.responseView)} />
                <LazyLiveRefresh submissionId={s.id} stamp={stamp} viewKey={viewKey} use="claim" />
              </div>
            }
          />
          <Card className="p-5 text-sm">
            {refused ? (
              <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-900" data-testid="submitted-refused">
                <p>{t(s.status === "failed" ? "claim.failedText" : stoppedBeforeSending(s.errors) ? "claim.stoppedText" : "claim.rejectedText")}</p>
                {reason && (
                  <p className="mt-1" data-testid="submitted-reason">
                    {t("claim.reason")}: <PlatformWordsText value={reason} className="inline" />
                  </p>
                )}
              </div>
            ) : (
              <p>{t("claim.submittedText")}</p>
            )}
            <dl className="mt-3 grid gap-2 sm:grid-cols-3">
              <div>
                <dt className="text-slate-500">{t("detail.identifier")}</dt>
                <dd className="break-all font-mono text-xs"><bdi dir="ltr">{s.identifierValue ?? "—"}</bdi></dd>
              </div>
              <div>
                <dt className="text-slate-500">{t("detail.total")}</dt>
                <dd className="tabular-nums">{s.totalMinor === null ? "—" : formatMoney(s.totalMinor, locale, s.currency ?? undefined)}</dd>
              </div>
              <div>
                <dt className="text-slate-500">{t("detail.preAuthRef")}</dt>
                <dd className="font-mono">
                  <bdi dir="ltr">{((s.claim.insurance as { preAuthRef?: string[] }[] | undefined)?.[0]?.preAuthRef ?? []).join(", ") || "—"}</bdi>
                </dd>
              </div>
            </dl>
            {view.decision && (
              <div className="mt-5">
                <DecisionTable decision={view.decision} />
              </div>
            )}
            <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
              <Link href={`/claims/${s.id}`} className="text-brand-800 underline" data-testid="submitted-open">
                {t("claim.open")}
              </Link>
              {refused && (
                <Link href="/claims/work-queue" className="text-brand-800 underline" data-testid="submitted-work-queue">
                  {t("claim.workQueue")}
                </Link>
              )}
              <Link href="/claims/new" className="text-brand-800 underline">
                {t("claim.another")}
              </Link>
            </p>
          </Card>
        </>
      );
    }
  }

  const today = clinicToday();
  let initial;
  let authorizationId: string | null = null;
  let replacesId: string | null = null;
  if (typeof draft === "string") {
    const loaded = await loadDraftForForm(db, draft, "claim");
    await staff.audit({ action: "claim.draft_open", target: { type: "submission", id: typeof loaded === "string" ? "unknown" : loaded.id }, outcome: typeof loaded === "string" ? "failure" : "success", ...(typeof loaded === "string" ? { details: { reason: loaded } } : { details: { patientId: loaded.patient?.id } }) });
    if (typeof loaded !== "string") {
      authorizationId = loaded.authorizationId;
      replacesId = loaded.replacesId;
      initial = {
        draftId: loaded.id,
        values: loaded.values,
        patient: loaded.patient,
        attachments: loaded.attachments.map((a) => ({ id: a.id, fileName: a.fileName, contentType: a.contentType, size: a.size })),
      };
    }
  }
  // Decision 048: what remains of the linked authorization (this draft excluded) and the draft's filing deadline.
  const usage = authorizationId ? await authorizationUsage(db, authorizationId, initial?.draftId) : undefined;
  // The care team staff pick from: their facility's practitioners and the main facility's (decision 084).
  const options = await submissionFormOptions(db, user.id, env().PLATFORM_PROTOCOL);
  const draftDeadline = initial?.draftId ? (await deadlinesFor(db, [initial.draftId], today, env().CLINIC_TIME_ZONE)).get(initial.draftId) : undefined;
  return (
    <>
      {authorizationId && (
        <nav className="mb-3 text-sm">
          <Link href={`/authorizations/${authorizationId}`} className="text-brand-800 underline-offset-2 hover:underline">
            <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("claim.backToAuthorization")}
          </Link>
        </nav>
      )}
      <PageHeader title={t("claim.title")} description={authorizationId ? t("claim.fromAuthorization") : t("claim.description")} />
      {/* Fix-and-resubmit: which claim this fixes and why the payer refused it, before the form (decision 123). */}
      {replacesId && <FixingNotice db={db} replacesId={replacesId} />}
      {initial?.draftId && <DuplicateWarning db={db} draftId={initial.draftId} />}
      {draftDeadline && (
        <p className="mb-4">
          <LazyDeadlineBadge deadline={draftDeadline} />
        </p>
      )}
      <SubmissionForm use="claim" today={today} initial={initial} usage={usage} practitioners={options.practitioners} codeLists={options.codeLists} protocol={env().PLATFORM_PROTOCOL} />
    </>
  );
});

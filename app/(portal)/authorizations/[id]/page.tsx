import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { CreateClaimButton } from "@/components/authorizations/create-claim-button";
import { DecisionTable } from "@/components/authorizations/decision-table";
import { OverallDecision } from "@/components/claims/decision-lines";
import { ResponseDetails } from "@/components/claims/response-details";
import { SubmissionLiveRefresh } from "@/components/live/submission-live-refresh";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { PayerBadge } from "@/components/authorizations/payer-badge";
import { PayerApprovalActions } from "@/components/authorizations/payer-approval-actions";
import { Timeline } from "@/components/authorizations/timeline";
import { DiagnosisList } from "@/components/coding/diagnosis-list";
import { Card, PageHeader } from "@/components/ui/card";
import { PrintButton } from "@/components/print/print-button";
import { PrintSheet } from "@/components/print/print-sheet";
import { CancelButton } from "@/components/cancellation/cancel-button";
import { StatusCheckPanel } from "@/components/cancellation/status-check-panel";
import { InformationRequestList } from "@/components/information-requests/request-list";
import { canCancel, canCheckStatus } from "@/lib/cancellation";
import { listInformationRequests } from "@/lib/information-requests";
import { formatBytes } from "@/lib/attachments";
import { authorizationVersions, changeableVersion, getSubmissionView, isPayerOriginated, submissionLabels, submissionNumber } from "@/lib/submissions";
import { getDb } from "@/lib/db";
import { ChangeAuthorizationButton } from "@/components/authorizations/change-authorization-button";
import { VersionChain } from "@/components/authorizations/version-chain";
import { EvidenceList } from "@/components/evidence/evidence-list";
import { evidenceOf } from "@/lib/evidence";
import { UsageTable } from "@/components/authorization-usage/usage-table";
import { authorizationUsage } from "@/lib/authorization-usage";
import { currentUser, staffPage, type StaffPageContext, canAccess } from "@/lib/auth";
import { dispositionWords, outcomeOfView } from "@/lib/i18n";
import { formatMoney } from "@/lib/money";
import { PlatformErrors, stoppedBeforeSending } from "@/components/claims/platform-errors";
import { PlatformWordsText } from "@/components/claims/platform-words";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  // The tab says which authorization (its short number only: no patient name in a browser's history).
  const number = (await currentUser()) ? await submissionNumber(await getDb(), (await params).id) : undefined;
  const title = (await getTranslations("authorizations"))("detail.title");
  return { title: number ? `${title} ${number}` : title };
}

export default staffPage("authorizations", async function AuthorizationPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { user } = staff;
  const { id } = await params;
  const db = staff.db;
  // Read before the page's data: an event after this moment makes the browser render the page again.
  const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.submission], submissionId: id });
  const view = await getSubmissionView(db, id, "preauthorization");
  const viewKey = await staff.audit({ action: "authorization.view", target: { type: "submission", id: view?.submission.id ?? "unknown" }, outcome: view ? "success" : "failure", details: view ? { patientId: view.patient?.id ?? null } : { reason: "not_found" } });
  if (!view) notFound();
  const { submission: s, decision } = view;
  if (s.status === "draft") redirect(`/authorizations/new?draft=${s.id}`);
  const [t, format, locale, coding] = [await getTranslations("authorizations"), await getFormatter(), await getLocale(), await getTranslations("coding")];
  const decided = s.status === "complete" || s.status === "partial";
  // The versions of this authorization (decision 114): the usage follows the current one.
  const versions = await authorizationVersions(db, s.id);
  const current = versions.find((v) => v.current);
  const usage = current && (current.status === "complete" || current.status === "partial") ? await authorizationUsage(db, current.id, undefined, versions.map((v) => v.id)) : decided ? await authorizationUsage(db, s.id) : undefined;
  const changeable = !isPayerOriginated(s) && changeableVersion(versions, s.id);
  const evidence = await evidenceOf(db, s.id);
  const mayEvidence = ["sent", "pended", "complete", "partial", "denied"].includes(s.status) && !!s.identifierValue;
  const canClaim = decided && !!decision?.preAuthRef && canAccess(user.roles, "claims");
  const waiting = s.status === "queued" || s.status === "sent" || s.status === "pended";
  // A payer's advanced authorization (docs/decisions/101): approved unasked; nothing was sent, so no status check.
  const fromPayer = isPayerOriginated(s);
  const payer = await getTranslations("authorizations.payer");
  const day = (iso: string) => format.dateTime(new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso), { dateStyle: "medium", timeZone: "UTC" });
  const period = decision?.preAuthPeriod;
  const dl = "grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4";
  // Decision 122: the authorization and the claims made from it by their labels.
  const labels = await submissionLabels(db, [s.id, ...view.claims.map((c) => c.id)], locale);
  const label = labels.get(s.id);
  const [ir, informationRequests] = [await getTranslations("informationRequests"), await listInformationRequests(db, { submissionId: s.id, filter: "all", kinds: ["preauthorization"] })];

  const tp = await getTranslations("print");
  const patientName = view.patient ? `${view.patient.givenName} ${view.patient.familyName}` : undefined;
  return (
    <>
      {/* A printable approval (decision 123): the clinic, the date printed, page numbers; the menu and the actions stay off the paper. */}
      <PrintSheet title={t("detail.title")} {...(patientName ? { subject: patientName } : {})} />
      <nav className="no-print mb-3 text-sm" aria-label={t("detail.breadcrumb")}>
        <Link href="/authorizations" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("backToList")}
        </Link>
        {label && (
          <span className="text-slate-600">
            {" / "}
            <bdi dir="ltr" aria-current="page">{label.number}</bdi>
          </span>
        )}
      </nav>
      <PageHeader
        title={label ? <>{t("detail.title")} <bdi dir="ltr" data-testid="authorization-number">{label.number}</bdi></> : t("detail.title")}
        description={label?.subject ?? (view.patient ? `${view.patient.givenName} ${view.patient.familyName}` : undefined)}
        actions={
          <div className="flex flex-col items-end gap-1">
            <span className="flex flex-wrap items-center justify-end gap-1">
              <StatusBadge status={s.status} outcome={outcomeOfView(s.responseView)} />
              {fromPayer && <PayerBadge />}
            </span>
            <SubmissionLiveRefresh submissionId={s.id} stamp={stamp} viewKey={viewKey} />
            {decided && <PrintButton label={tp("button")} />}
            {canCheckStatus(s) && <CancelButton id={s.id} kind="preauthorization" allowed={canCancel(s)} />}
          </div>
        }
      />

      {view.overriddenBy && (
        <p className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="overridden-note">
          {t("detail.overridden")}{" "}
          <Link href={`/authorizations/${view.overriddenBy.id}`} className="font-medium underline underline-offset-2">
            {t("detail.openCurrentVersion")}
          </Link>
        </p>
      )}
      {fromPayer && (
        <p className="mb-4 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900" data-testid="payer-note">
          {s.status === "cancelled" ? payer("cancelledNote") : payer("note")}
        </p>
      )}
      {waiting && (
        <p className="mb-4 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900" data-testid="waiting-note">
          {t("detail.waiting")}
        </p>
      )}
      {(s.status === "rejected" || s.status === "failed") && s.errors && (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">{t(s.status === "rejected" && stoppedBeforeSending(s.errors) ? "detail.stopped" : `detail.${s.status}`)}</p>
          <div className="mt-1">
            <PlatformErrors errors={s.errors} />
          </div>
        </div>
      )}

      <Card className="mb-6 p-5">
        <dl className={dl}>
          <div>
            <dt className="text-slate-500">{t("detail.created")}</dt>
            <dd className="font-medium">
              <time dateTime={s.createdAt.toISOString()}>{format.dateTime(s.createdAt, { dateStyle: "medium", timeStyle: "short" })}</time>
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.total")}</dt>
            <dd className="font-medium tabular-nums">
              {s.totalMinor === null ? "—" : formatMoney(s.totalMinor, locale, s.currency ?? undefined)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.preAuthRef")}</dt>
            <dd className="font-mono font-semibold" data-testid="preauth-ref">
              <bdi dir="ltr">{decision?.preAuthRef ?? "—"}</bdi>
            </dd>
          </div>
          {decision?.response.transfer ? (
            // A referral's answer (guide 7.3): the receiving provider's authorization — number, period, provider.
            <div className="sm:col-span-2 lg:col-span-4 rounded-md border border-sky-200 bg-sky-50 p-3" data-testid="transfer-authorization">
              <dt className="font-medium text-sky-950">{t("detail.transfer.title")}</dt>
              <dd className="mt-1 grid grid-cols-1 gap-2 sm:grid-cols-3">
                <span>
                  <span className="text-slate-600">{t("detail.transfer.number")}: </span>
                  <bdi dir="ltr" className="font-mono font-semibold" data-testid="transfer-number">{decision.response.transfer.number ?? "—"}</bdi>
                </span>
                <span>
                  <span className="text-slate-600">{t("detail.transfer.period")}: </span>
                  {decision.response.transfer.period?.start && decision.response.transfer.period.end ? payer("validFromTo", { from: day(decision.response.transfer.period.start), until: day(decision.response.transfer.period.end) }) : "—"}
                </span>
                <span>
                  <span className="text-slate-600">{t("detail.transfer.provider")}: </span>
                  {decision.response.transfer.provider?.display ?? decision.response.transfer.provider?.identifier?.value ?? "—"}
                </span>
              </dd>
            </div>
          ) : null}
          {fromPayer && period?.start && period.end ? (
            <div>
              <dt className="text-slate-500">{payer("validity")}</dt>
              <dd className="font-medium" data-testid="validity">
                {payer("validFromTo", { from: day(period.start), until: day(period.end) })}
              </dd>
            </div>
          ) : (
            <div>
              <dt className="text-slate-500">{t("detail.validUntil")}</dt>
              <dd className="font-medium">{decision?.preAuthPeriod?.end ? format.dateTime(new Date(decision.preAuthPeriod.end), { dateStyle: "medium", timeZone: "UTC" }) : "—"}</dd>
            </div>
          )}
          <div className="sm:col-span-2 lg:col-span-4">
            <dt className="text-slate-500">{fromPayer ? payer("identifier") : t("detail.identifier")}</dt>
            <dd className="break-all font-mono text-xs">
              <bdi dir="ltr">{s.identifierValue ?? "—"}</bdi>
            </dd>
          </div>
          <div className="sm:col-span-2 lg:col-span-4">
            <dt className="text-slate-500">{coding("diagnoses")}</dt>
            <dd>
              <DiagnosisList claim={s.claim} />
            </dd>
          </div>
          {decision?.disposition && (
            <div className="sm:col-span-2 lg:col-span-4">
              <dt className="text-slate-500">{t("detail.disposition")}</dt>
              <dd data-testid="disposition">
                <PlatformWordsText value={dispositionWords(decision.disposition, locale)} testId="disposition-text" />
              </dd>
            </div>
          )}
        </dl>
        {(canClaim || changeable) && (
          <div className="no-print mt-5 flex flex-wrap items-start gap-4 border-t border-slate-100 pt-4">
            {canClaim && <CreateClaimButton authorizationId={s.id} />}
            {changeable && <ChangeAuthorizationButton authorizationId={s.id} />}
          </div>
        )}
        {view.claims.length > 0 && (
          <div className="mt-4 text-sm">
            <p className="text-slate-500">{t("detail.claims")}</p>
            <ul className="mt-1 space-y-1">
              {view.claims.map((c) => (
                <li key={c.id} className="flex items-center gap-2">
                  <StatusBadge status={c.status} kind="claim" />
                  {c.status === "draft" && canAccess(user.roles, "claims") ? (
                    <Link href={`/claims/new?draft=${c.id}`} className="text-brand-800 underline">
                      {t("detail.openDraftClaim")}
                    </Link>
                  ) : labels.get(c.id) && canAccess(user.roles, "claims") ? (
                    <Link href={`/claims/${c.id}`} className="text-brand-800 underline" data-testid="authorization-claim">
                      <bdi>{labels.get(c.id)!.text}</bdi>
                    </Link>
                  ) : (
                    <time className="text-slate-600" dateTime={c.createdAt.toISOString()}>
                      {labels.get(c.id)?.text ?? format.dateTime(c.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                    </time>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </Card>

      {/* The decision per service across the page: every amount in view at 1280 px (docs/decisions/106). */}
      <Card className="mb-6 p-5">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-base font-semibold">{t("decision.title")}</h2>
          {decision && <OverallDecision decision={decision} kind="preauthorization" />}
        </div>
        {decision ? <DecisionTable decision={decision} /> : <p className="text-sm text-slate-600">{t("decision.none")}</p>}
      </Card>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] print:block">
        <div className="min-w-0 space-y-6">
          {usage && <UsageTable usage={usage} />}
          {decision && (
            <Card className="p-5">
              <ResponseDetails decision={decision} show={{ payment: true, preAuth: true }} />
            </Card>
          )}
          <Card className="p-5">
            <h2 className="mb-3 text-base font-semibold">{t("detail.attachments")}</h2>
            {view.attachments.length === 0 ? (
              <p className="text-sm text-slate-600">{t("detail.noAttachments")}</p>
            ) : (
              <ul className="divide-y divide-slate-100 text-sm" data-testid="attachment-list">
                {view.attachments.map((a) => (
                  <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <span className="flex min-w-0 flex-wrap items-baseline gap-x-3">
                      <a href={`/api/attachments/${a.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline" download>
                        <bdi>{a.fileName}</bdi>
                      </a>
                      <bdi dir="ltr" className="text-xs text-slate-500">
                        {a.contentType} · {formatBytes(a.size, locale)}
                      </bdi>
                    </span>
                    <span className="font-mono text-[11px] text-slate-500" dir="ltr" title={t("detail.sha256")}>
                      SHA-256 {a.sha256.slice(0, 16)}…
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
        <div className="no-print space-y-6">
          {informationRequests.length > 0 && (
            <Card className="p-5">
              <h2 className="mb-3 text-base font-semibold">{ir("section")}</h2>
              <InformationRequestList rows={informationRequests} showSubmission={false} canAnswer={() => true} />
            </Card>
          )}
          {fromPayer && decided && (
            <Card className="p-5">
              <h2 className="mb-3 text-base font-semibold">{payer("actionsTitle")}</h2>
              <PayerApprovalActions authorizationId={s.id} />
            </Card>
          )}
          {versions.length > 1 && (
            <Card className="p-5">
              <VersionChain versions={versions} viewing={s.id} />
            </Card>
          )}
          {(mayEvidence || evidence.length > 0) && !fromPayer && (
            <Card className="p-5">
              <EvidenceList rows={evidence} sendHref={mayEvidence ? `/authorizations/${s.id}/evidence` : undefined} />
            </Card>
          )}
          {canCheckStatus(s) && !fromPayer && (
            <Card className="p-5">
              <StatusCheckPanel id={s.id} kind="preauthorization" />
            </Card>
          )}
          <Card className="p-5">
            <h2 className="mb-3 text-base font-semibold">{t("detail.timeline")}</h2>
            <Timeline entries={view.timeline} kind="preauthorization" outcome={outcomeOfView(s.responseView)} />
          </Card>
        </div>
      </div>
    </>
  );
});

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { SubmissionLiveRefresh } from "@/components/live/submission-live-refresh";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { Timeline } from "@/components/authorizations/timeline";
import { ClaimActions } from "@/components/claims/claim-actions";
import { DecisionLines, OverallDecision } from "@/components/claims/decision-lines";
import { ResponseDetails } from "@/components/claims/response-details";
import { PlatformErrors } from "@/components/claims/platform-errors";
import { PlatformWordsText } from "@/components/claims/platform-words";
import { RawJson } from "@/components/claims/raw-json";
import { DiagnosisList } from "@/components/coding/diagnosis-list";
import { formatAmount } from "@/components/coding/format";
import { DataTable } from "@/components/ui/data-table";
import { Card, PageHeader } from "@/components/ui/card";
import { PrintButton } from "@/components/print/print-button";
import { PrintSheet } from "@/components/print/print-sheet";
import { CancelButton } from "@/components/cancellation/cancel-button";
import { StatusCheckPanel } from "@/components/cancellation/status-check-panel";
import { InformationRequestList } from "@/components/information-requests/request-list";
import { canCancel, canCheckStatus } from "@/lib/cancellation";
import { listInformationRequests } from "@/lib/information-requests";
import { currentUser, staffPage, type StaffPageContext } from "@/lib/auth";
import { APPEALABLE_STATUSES, appealableLines, appealsOf, getSubmissionView, submissionLabels, submissionNumber, submissionTimeline } from "@/lib/submissions";
import { getDb } from "@/lib/db";
import { buttonClasses } from "@/components/ui/button";
import { claimAuthorization, replacementLinks } from "@/lib/claims";
import { findCode, toMinorUnits } from "@/lib/fhir";
import { dispositionWords, outcomeOfView, statusLabel } from "@/lib/i18n";
import { formatMoney } from "@/lib/money";
import { insurerNames } from "@/lib/patients";
import { DeadlineBadge } from "@/components/deadlines/deadline-badge";
import { ClaimPaymentLine } from "@/components/payments/claim-payment";
import { deadlinesFor } from "@/lib/deadlines";
import { env } from "@/lib/env";
import { claimPayments } from "@/lib/payments";
import { clinicToday } from "@/lib/time";
import { EvidenceList } from "@/components/evidence/evidence-list";
import { evidenceOf } from "@/lib/evidence";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  // The tab says which claim (its short number only: no patient name in a browser's history).
  const number = (await currentUser()) ? await submissionNumber(await getDb(), (await params).id) : undefined;
  const title = (await getTranslations("claims"))("detail.title");
  return { title: number ? `${title} ${number}` : title };
}

/** One claim: adjudication per item, patient share, payment, live timeline, request ids, raw FHIR. */
export default staffPage("claims", async function ClaimDetailPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { user } = staff;
  const { id } = await params;
  const [t, words, format, db] = [await getTranslations("claims"), await getTranslations("statusWords"), await getFormatter(), staff.db];
  // Read before the page's data: an event after this moment makes the browser render the page again.
  const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.submission], submissionId: id });
  const locale = await getLocale();
  const coding = await getTranslations("coding");
  /** A FHIR date in the page's language; an unreadable one as the platform wrote it. */
  const day = (value: string) => {
    const date = new Date(`${value.slice(0, 10)}T12:00:00Z`);
    return Number.isNaN(date.getTime()) ? value : format.dateTime(date, { dateStyle: "medium" });
  };
  const insurerName = await insurerNames(db, locale);
  const view = await getSubmissionView(db, id, "claim");
  const viewKey = await staff.audit({ action: "claim.view", target: { type: "submission", id: view?.submission.id ?? "unknown" }, outcome: view ? "success" : "failure" });
  if (!view) notFound();
  const s = view.submission;
  const [links, preAuth, informationRequests, ir] = await Promise.all([
    replacementLinks(db, s.id, s.replacesId),
    claimAuthorization(db, s.claim, s.authorizationId),
    listInformationRequests(db, { submissionId: s.id, filter: "all", kinds: ["claim"] }),
    getTranslations("informationRequests"),
  ]);
  // Decision 122: this claim, the one it replaces, its resubmissions, its appeal and authorization by their labels.
  const labels = await submissionLabels(db, [s.id, s.replacesId, s.appealOfId, s.authorizationId, ...links.replacedBy.map((r) => r.id)], locale);
  const linkText = (other: { id: string; createdAt: Date }) => labels.get(other.id)?.text ?? format.dateTime(other.createdAt, { dateStyle: "medium", timeStyle: "short" });
  const label = labels.get(s.id);
  // Decision 047: what the payer paid (remittances) and the filing deadline while the claim is still open.
  const [paidBy, deadlines] = await Promise.all([claimPayments(db, [s.id]), deadlinesFor(db, [s.id], clinicToday(), env().CLINIC_TIME_ZONE)]);
  // Decision 081: its appeals (their timelines merged into this one's) and whether it may be appealed now.
  const [appeals, appealLines] = await Promise.all([appealsOf(db, s.id), appealableLines(db, s.id)]);
  const appealTimelines = await Promise.all(appeals.map(async (a) => ({ href: `/claims/${a.id}`, label: t("appeal.timelinePrefix"), entries: await submissionTimeline(db, a.id), outcome: outcomeOfView(a.responseView) })));
  const openAppeal = appeals.some((a) => !["complete", "partial", "denied", "rejected", "failed", "cancelled"].includes(a.status));
  // Once an appeal is open or has been paid in full there is nothing left to appeal here; after an upheld or cut one, a further appeal.
  // Decision 115: information sent to the payer unasked, and whether more may be sent.
  const evidence = await evidenceOf(db, s.id);
  const mayEvidence = ["sent", "pended", "complete", "partial", "denied"].includes(s.status) && !!s.identifierValue;
  const canAppeal = (APPEALABLE_STATUSES as readonly string[]).includes(s.status) && appealLines.length > 0 && !openAppeal && !appeals.some((a) => a.status === "complete");
  const d = view.decision;
  const outcome = outcomeOfView(s.responseView);
  const payment = d?.response.payment;
  const requestIds = [...new Set([...view.timeline.map((e) => e.requestId), s.lastRequestId].filter((x): x is string => Boolean(x)))];
  const dt = (label: string, value: React.ReactNode, testId?: string) => (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );

  const tp = await getTranslations("print");
  const patientName = view.patient ? `${view.patient.givenName} ${view.patient.familyName}` : undefined;
  return (
    <>
      {/* A claim with its decision on paper (decision 123): the clinic, the date printed, page numbers; no menu, no actions. */}
      <PrintSheet title={t("detail.title")} {...(patientName ? { subject: patientName } : {})} />
      <nav className="no-print mb-3 text-sm" aria-label={t("detail.breadcrumb")}>
        <Link href="/claims" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("detail.back")}
        </Link>
        {label && (
          <span className="text-slate-600">
            {" / "}
            <bdi dir="ltr" aria-current="page">{label.number}</bdi>
          </span>
        )}
      </nav>
      <PageHeader
        title={label ? <>{t("detail.title")} <bdi dir="ltr" data-testid="claim-number">{label.number}</bdi></> : t("detail.title")}
        description={label?.subject ?? (view.patient ? `${view.patient.givenName} ${view.patient.familyName}` : undefined)}
        actions={
          <div className="flex flex-col items-end gap-2">
            <div className="flex items-center gap-3">
              <StatusBadge status={s.status} kind="claim" outcome={outcome} />
              <SubmissionLiveRefresh submissionId={s.id} stamp={stamp} viewKey={viewKey} use="claim" />
            </div>
            <ClaimActions id={s.id} status={s.status} />
            {d && <PrintButton label={tp("button")} />}
            {canAppeal && (
              <Link href={`/claims/${s.id}/appeal`} className={buttonClasses("primary", "no-print")} data-testid="appeal-claim">
                {t("workQueue.actions.appeal")}
              </Link>
            )}
            {canCheckStatus(s) && <CancelButton id={s.id} kind="claim" nullify={s.status === "complete" || s.status === "partial"} allowed={canCancel(s)} />}
          </div>
        }
      />
      <div className="mb-6 space-y-6">
          {(paidBy.get(s.id) || deadlines.get(s.id)) && (
            <Card className="flex flex-wrap items-center gap-3 p-4">
              {paidBy.get(s.id) && <ClaimPaymentLine payment={paidBy.get(s.id)!} />}
              {deadlines.get(s.id) && <DeadlineBadge deadline={deadlines.get(s.id)!} />}
            </Card>
          )}
          <Card className="p-5 text-sm">
            <dl className="grid gap-3 sm:grid-cols-3 lg:grid-cols-4">
              {dt(t("detail.identifier"), <bdi dir="ltr" className="break-all font-mono text-xs">{s.identifierValue ?? "—"}</bdi>, "claim-identifier")}
              {dt(t("detail.platformId"), <bdi dir="ltr" className="font-mono text-xs">{s.platformId ?? "—"}</bdi>)}
              {dt(
                t("detail.insurer"),
                // The insurer by name; its platform id only on hover (support), never as text beside it.
                s.insurerId ? <span title={s.insurerId}>{insurerName(s.insurerId)}</span> : "—",
                "claim-insurer",
              )}
              {dt(t("detail.total"), <span className="tabular-nums">{s.totalMinor === null ? "—" : formatMoney(s.totalMinor, locale, s.currency ?? undefined)}</span>, "claim-total")}
              {dt(
                t("detail.preAuth"),
                preAuth ? (
                  <span>
                    <bdi dir="ltr" className="font-mono text-xs">
                      {preAuth.preAuthRef}
                    </bdi>
                    {preAuth.authorization?.period && (
                      <span className="block text-xs text-slate-600">
                        {t("detail.preAuthValid", {
                          from: preAuth.authorization.period.start ? format.dateTime(new Date(`${preAuth.authorization.period.start.slice(0, 10)}T12:00:00Z`), { dateStyle: "medium" }) : "—",
                          until: preAuth.authorization.period.end ? format.dateTime(new Date(`${preAuth.authorization.period.end.slice(0, 10)}T12:00:00Z`), { dateStyle: "medium" }) : "—",
                        })}
                      </span>
                    )}
                    {preAuth.authorization && (
                      <Link href={`/authorizations/${preAuth.authorization.id}`} className="block text-xs text-brand-800 underline">
                        {t("detail.preAuthOpen")}
                      </Link>
                    )}
                  </span>
                ) : (
                  "—"
                ),
                "claim-preauth",
              )}
              {/* In the page's language when the platform's text is known; its own words kept as a secondary line. */}
              {dt(coding("diagnoses"), <DiagnosisList claim={s.claim} />, "claim-diagnoses")}
              {dt(t("detail.disposition"), d?.disposition ? <PlatformWordsText value={dispositionWords(d.disposition, locale)} testId="disposition-text" /> : "—", "disposition")}
              {dt(
                t("detail.payment"),
                payment ? (
                  <span className="tabular-nums">
                    {payment.amount?.minor !== undefined ? formatMoney(payment.amount.minor, locale, payment.amount.currency) : "—"}
                    {payment.date ? ` · ${day(payment.date)}` : ""}
                  </span>
                ) : (
                  "—"
                ),
                "payment",
              )}
            </dl>
            {(links.replaces || links.replacedBy.length > 0) && (
              <div className="mt-4 space-y-1" data-testid="replacement-links">
                {links.replaces && (
                  <p>
                    {t("detail.replaces")}{" "}
                    <Link className="text-brand-800 underline" href={`/claims/${links.replaces.id}`}>
                      <bdi>{linkText(links.replaces)}</bdi> ({words(`claim.${links.replaces.status}`)})
                    </Link>
                  </p>
                )}
                {links.replacedBy.map((r) => (
                  <p key={r.id}>
                    {t("detail.replacedBy")}{" "}
                    <Link className="text-brand-800 underline" href={r.status === "draft" ? `/claims/new?draft=${r.id}` : `/claims/${r.id}`}>
                      <bdi>{linkText(r)}</bdi> ({words(`claim.${r.status}`)})
                    </Link>
                  </p>
                ))}
              </div>
            )}
            {s.appealOfId && (
              <p className="mt-4" data-testid="appeal-of">
                {t("appeal.appealOf")}{" "}
                <Link className="text-brand-800 underline" href={`/claims/${s.appealOfId}`}>
                  {labels.get(s.appealOfId)?.text ?? t("detail.title")}
                </Link>
              </p>
            )}
            {appeals.length > 0 && (
              <div className="mt-4 space-y-1" data-testid="appeals">
                <h2 className="font-medium">{t("appeal.section")}</h2>
                <ul className="space-y-1">
                  {appeals.map((a) => (
                    <li key={a.id} data-status={a.status}>
                      <Link className="text-brand-800 underline" href={`/claims/${a.id}`}>
                        {t("appeal.filedOn", { date: format.dateTime(a.createdAt, { dateStyle: "medium", timeStyle: "short" }) })}
                      </Link>{" "}
                      ({words(statusLabel("claim", a.status, outcomeOfView(a.responseView)).key as never)})
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {(s.status === "rejected" || s.status === "failed") && (
              <div className="mt-4 rounded-md border border-red-200 bg-red-50 p-3">
                <h2 className="mb-1 font-medium text-red-900">{t("detail.reasons")}</h2>
                <PlatformErrors errors={s.errors} />
              </div>
            )}
          </Card>
          {d ? (
            <>
              <Card>
                <div className="flex flex-wrap items-center justify-between gap-2 px-4 pt-3 text-sm">
                  <h2 className="font-medium">{t("detail.items")}</h2>
                  <OverallDecision decision={d} kind="claim" />
                </div>
                <DecisionLines decision={d} variant="claim" />
              </Card>
              <Card className="p-5">
                <ResponseDetails decision={d} show={{ payment: true, preAuth: true }} />
              </Card>
            </>
          ) : (
            <Card>
              <DataTable
                label={t("detail.items")}
                captionHidden={false}
                testId="adjudication-table"
                rows={itemsOfClaim(s.claim)}
                rowKey={(i) => String(i.sequence)}
                rowProps={() => ({ "data-testid": "adjudication-row" })}
                columns={[
                  {
                    id: "code",
                    header: t("detail.col.code"),
                    className: "px-3 py-2",
                    cell: (i) => (
                      <>
                        <bdi dir="ltr" className="font-mono">{i.code ?? "—"}</bdi>
                        {i.code && findCode("cpt", i.code) && <span className="ms-2 text-slate-700">{findCode("cpt", i.code)!.display[locale === "ar" ? "ar" : "en"]}</span>}
                      </>
                    ),
                  },
                  { id: "date", header: t("detail.col.date"), className: "px-3 py-2 tabular-nums", dir: "ltr", cell: (i) => i.servicedDate ?? "—" },
                  { id: "quantity", header: t("detail.col.quantity"), align: "end", className: "px-3 py-2 tabular-nums", cell: (i) => i.quantity ?? "—" },
                  { id: "submitted", header: t("detail.col.submitted"), align: "end", className: "px-3 py-2 tabular-nums", dir: "ltr", cell: (i) => formatAmount(i.submittedMinor) },
                ]}
              />
            </Card>
          )}
      </div>
      <div className="no-print grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-6">
          <Card className="space-y-3 p-5">
            <h2 className="font-medium">{t("detail.raw")}</h2>
            <RawJson title={t("detail.rawClaim")} value={s.claim} testId="raw-claim" />
            {s.response && <RawJson title={t("detail.rawResponse")} value={s.response} testId="raw-response" />}
          </Card>
        </div>
        <div className="space-y-6">
          {informationRequests.length > 0 && (
            <Card className="p-5">
              <h2 className="mb-3 font-medium">{ir("section")}</h2>
              <InformationRequestList rows={informationRequests} showSubmission={false} canAnswer={() => true} />
            </Card>
          )}
          {(mayEvidence || evidence.length > 0) && (
            <Card className="p-5">
              <EvidenceList rows={evidence} sendHref={mayEvidence ? `/claims/${s.id}/evidence` : undefined} />
            </Card>
          )}
          {canCheckStatus(s) && (
            <Card className="p-5">
              <StatusCheckPanel id={s.id} kind="claim" />
            </Card>
          )}
          <Card className="p-5">
            <h2 className="mb-3 font-medium">{t("detail.timeline")}</h2>
            <Timeline entries={view.timeline} kind="claim" outcome={outcome} linked={appealTimelines} />
          </Card>
          <Card className="p-5 text-sm">
            <h2 className="mb-2 font-medium">{t("detail.requestIds")}</h2>
            {requestIds.length ? (
              <ul className="space-y-1 font-mono text-xs" dir="ltr" data-testid="request-ids">
                {requestIds.map((r) => (
                  <li key={r} className="break-all">{r}</li>
                ))}
              </ul>
            ) : (
              <p className="text-slate-500">—</p>
            )}
          </Card>
        </div>
      </div>
    </>
  );
});

type Json = Record<string, unknown>;
/** Items of the Claim itself, before any adjudication. */
function itemsOfClaim(claim: Json) {
  const items = Array.isArray(claim.item) ? (claim.item as Json[]) : [];
  return items.map((item) => {
    const unit = (item.unitPrice as Json | undefined)?.value;
    const qty = (item.quantity as Json | undefined)?.value as number | undefined;
    const net = (item.net as Json | undefined)?.value;
    return {
      sequence: Number(item.sequence),
      code: ((item.productOrService as Json | undefined)?.coding as Json[] | undefined)?.[0]?.code as string | undefined,
      servicedDate: item.servicedDate as string | undefined,
      quantity: qty,
      submittedMinor: typeof net === "number" ? toMinorUnits(net) : typeof unit === "number" ? (toMinorUnits(unit) ?? 0) * (qty ?? 1) : undefined,
    };
  });
}

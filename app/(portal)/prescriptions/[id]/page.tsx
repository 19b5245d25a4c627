import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { Timeline } from "@/components/authorizations/timeline";
import { SubmissionLiveRefresh } from "@/components/live/submission-live-refresh";
import { CancelButton } from "@/components/cancellation/cancel-button";
import { StatusCheckPanel } from "@/components/cancellation/status-check-panel";
import { Card, PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { EvidenceList } from "@/components/evidence/evidence-list";
import { InformationRequestList } from "@/components/information-requests/request-list";
import { evidenceOf } from "@/lib/evidence";
import { listInformationRequests } from "@/lib/information-requests";
import { currentUser, staffPage, type StaffPageContext } from "@/lib/auth";
import { canCancel, canCheckStatus } from "@/lib/cancellation";
import { outcomeOfView } from "@/lib/i18n";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { appealablePrescriptionLines, getPrescription, refillsLeftOf } from "@/lib/prescriptions";
import { appealsOf, getSubmission, submissionLabels, submissionNumber, submissionTimeline } from "@/lib/submissions";
import { getDb } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { TableFrame } from "@/components/ui/table-frame";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  // The tab says which prescription (its short number only: no patient name in a browser's history; decision 122).
  const number = (await currentUser()) ? await submissionNumber(await getDb(), (await params).id) : undefined;
  const title = (await getTranslations("prescriptions"))("detail.title");
  return { title: number ? `${title} ${number}` : title };
}

const DECISION_KEYS = ["approved", "partly-approved", "denied", "pending", "error"] as const;

/** A prescription and the payer's answer: the decision per medicine, the refills approved, the reference (docs/decisions/116). */
export default staffPage("prescriptions", async function PrescriptionPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const db = staff.db;
  const stamp = await liveStamp(db, staff.user.roles, { kinds: [...PAGE_LIVE_KINDS.submission], submissionId: id });
  const view = await getPrescription(db, id);
  const viewKey = await staff.audit({ action: "prescription.view", target: { type: "submission", id: view?.id ?? "unknown" }, outcome: view ? "success" : "failure" });
  if (!view) notFound();
  const row = (await getSubmission(db, id))!;
  const timeline = await submissionTimeline(db, id);
  const [t, format, locale] = [await getTranslations("prescriptions"), await getFormatter(), await getLocale()];
  const ir = await getTranslations("informationRequests");
  // Decision 121: appeal, information sent, the payer's requests and the refills counted, as on an authorization.
  const [appeals, evidence, informationRequests] = await Promise.all([appealsOf(db, id), evidenceOf(db, id), listInformationRequests(db, { submissionId: id, filter: "all", kinds: ["prescription"] })]);
  // Decision 122: this prescription, its appeals and the one it appeals by their labels (P-1024 · patient · medicine · day).
  const labels = await submissionLabels(db, [id, view.appealOfId, ...appeals.map((a) => a.id)], locale);
  const label = labels.get(id);
  const openAppeal = appeals.some((a) => !["complete", "partial", "denied", "rejected", "failed", "cancelled"].includes(a.status));
  const canAppeal = appealablePrescriptionLines(view).length > 0 && !openAppeal;
  const mayEvidence = ["sent", "pended", "complete", "partial", "denied"].includes(view.status) && !!view.identifier;
  const verified = !!view.reference && (view.status === "complete" || view.status === "partial");
  const left = refillsLeftOf(view);
  const waiting = view.status === "queued" || view.status === "sent" || view.status === "pended";
  const decision = (d: string | undefined) => (d && (DECISION_KEYS as readonly string[]).includes(d) ? t(`decisions.${d}`) : "—");
  const dl = "grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4";
  return (
    <>
      <nav className="no-print mb-3 text-sm" aria-label={t("detail.breadcrumb")}>
        <Link href="/prescriptions" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("detail.backToList")}
        </Link>
        {label && (
          <span className="text-slate-600">
            {" / "}
            <bdi dir="ltr" aria-current="page">{label.number}</bdi>
          </span>
        )}
      </nav>
      <PageHeader
        title={label ? <>{t("detail.title")} <bdi dir="ltr" data-testid="prescription-number">{label.number}</bdi></> : t("detail.title")}
        description={label?.subject}
        actions={
          <div className="flex flex-col items-end gap-1">
            <StatusBadge status={view.status} outcome={outcomeOfView(row.responseView)} />
            <SubmissionLiveRefresh submissionId={view.id} stamp={stamp} viewKey={viewKey} />
            {canCheckStatus(row) && <CancelButton id={view.id} kind="prescription" allowed={canCancel(row)} />}
            {canAppeal && (
              <Link href={`/prescriptions/${view.id}/appeal`} className={buttonClasses("primary")} data-testid="appeal-prescription">
                {t("detail.appealAction")}
              </Link>
            )}
          </div>
        }
      />
      <div className="space-y-6">
        <Card>
          <dl className={`${dl} p-4`}>
            <div>
              <dt className="text-slate-600">{t("detail.reference")}</dt>
              <dd className="font-mono text-base font-semibold" dir="ltr" data-testid="prescription-reference">{view.reference ?? t("detail.noReference")}</dd>
            </div>
            <div>
              <dt className="text-slate-600">{t("detail.patient")}</dt>
              <dd>
                {label?.patient && <span className="block">{label.patient}</span>}
                <bdi dir="ltr" className="font-mono text-slate-600">{view.patientNationalId}</bdi>
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">{t("detail.sent")}</dt>
              <dd>{format.dateTime(view.createdAt, { dateStyle: "medium", timeStyle: "short" })}</dd>
            </div>
            <div>
              <dt className="text-slate-600">{t("detail.identifier")}</dt>
              <dd className="font-mono" dir="ltr">{view.identifier ?? "—"}</dd>
            </div>
          </dl>
          {verified && (
            <p className="border-t border-slate-200 px-4 py-3 text-sm" role="status" data-testid="refills-summary" data-left={left}>
              {left > 0 ? t("detail.refillsSummary", { used: view.dispensed, left }) : t("detail.refillsUsedUp", { used: view.dispensed })}
            </p>
          )}
        </Card>
        <Card>
          <h2 className="px-4 pt-4 text-base font-semibold text-slate-900">{t("detail.lines")}</h2>
          {waiting && <p className="px-4 pt-2 text-sm text-slate-600" role="status">{t("detail.waiting")}</p>}
          {/* On a phone each medicine is a card, refills left first (decision 106's stacked tables). */}
          <div className="p-4">
            <TableFrame label={t("detail.lines")} testId="prescription-lines" maxHeight="">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 text-start">{t("detail.medicine")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("detail.strength")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("detail.dosage")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("detail.refillsAsked")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("detail.refillsApproved")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("detail.refillsUsed")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("detail.refillsLeft")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("detail.decision")}</th>
                </tr>
              </thead>
              <tbody>
                {view.lines.map((l) => (
                  <tr key={l.sequence} className="border-t border-slate-200" data-testid={`prescription-line-${l.sequence}`}>
                    <td className="px-3 py-2" data-label={t("detail.medicine")}>
                      <span className="font-mono" dir="ltr">{l.code}</span> {(locale === "ar" ? (l.displayAr ?? l.display) : l.display) ? <span className="text-slate-700" data-testid="medicine-name">{locale === "ar" ? (l.displayAr ?? l.display) : l.display}</span> : null}
                    </td>
                    <td className="px-3 py-2" data-label={t("detail.strength")}><bdi dir="ltr">{l.strength ?? "—"}</bdi></td>
                    <td className="px-3 py-2" data-label={t("detail.dosage")}>{l.dose && l.frequency && l.durationDays !== undefined ? t("detail.dosageText", { dose: l.dose, frequency: t(`frequencies.${l.frequency}`), days: l.durationDays }) : "—"}</td>
                    <td className="px-3 py-2 text-end tabular-nums" data-label={t("detail.refillsAsked")}>{l.refillsRequested}</td>
                    <td className="px-3 py-2 text-end font-semibold tabular-nums" data-testid="approved-refills" data-label={t("detail.refillsApproved")}>{l.approvedRefills ?? "—"}</td>
                    <td className="px-3 py-2 text-end tabular-nums" data-testid="used-refills" data-label={t("detail.refillsUsed")}>{l.approvedRefills !== undefined ? view.dispensed : "—"}</td>
                    <td className="px-3 py-2 text-end font-semibold tabular-nums" data-testid="left-refills" data-label={t("detail.refillsLeft")} data-key="">{l.refillsLeft ?? "—"}</td>
                    <td className="px-3 py-2" data-testid="line-decision" data-label={t("detail.decision")}>{decision(l.decision)}</td>
                  </tr>
                ))}
              </tbody>
            </TableFrame>
          </div>
        </Card>
        {appeals.length > 0 && (
          <Card>
            <div className="p-4">
              <h2 className="mb-2 text-base font-semibold text-slate-900">{t("detail.appeals")}</h2>
              <ul className="space-y-1 text-sm" data-testid="prescription-appeals">
                {appeals.map((a) => (
                  <li key={a.id} className="flex flex-wrap items-center gap-2">
                    <StatusBadge status={a.status} outcome={outcomeOfView(a.responseView)} />
                    <Link href={`/prescriptions/${a.id}`} className="text-brand-800 underline underline-offset-2">
                      {labels.get(a.id) && <bdi dir="ltr">{labels.get(a.id)!.number}</bdi>}
                      {labels.get(a.id) && " · "}
                      {t("detail.openAppeal", { date: format.dateTime(a.createdAt, { dateStyle: "medium", timeStyle: "short" }) })}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          </Card>
        )}
        {view.appealOfId && (
          <p className="text-sm" data-testid="appeal-of">
            {t("detail.appealOf")}{" "}
            <Link href={`/prescriptions/${view.appealOfId}`} className="text-brand-800 underline underline-offset-2">
              <bdi>{labels.get(view.appealOfId)?.text ?? t("detail.title")}</bdi>
            </Link>
          </p>
        )}
        {informationRequests.length > 0 && (
          <Card className="p-4">
            <h2 className="mb-3 text-base font-semibold">{ir("section")}</h2>
            <InformationRequestList rows={informationRequests} showSubmission={false} canAnswer={() => true} />
          </Card>
        )}
        {(mayEvidence || evidence.length > 0) && (
          <Card className="p-4">
            <EvidenceList rows={evidence} sendHref={mayEvidence ? `/prescriptions/${view.id}/evidence` : undefined} />
          </Card>
        )}
        {canCheckStatus(row) && (
          <Card>
            <div className="p-4">
              <StatusCheckPanel id={view.id} kind="preauthorization" />
            </div>
          </Card>
        )}
        <Card>
          <div className="p-4">
            <Timeline entries={timeline} kind="preauthorization" outcome={outcomeOfView(row.responseView)} />
          </div>
        </Card>
      </div>
    </>
  );
});

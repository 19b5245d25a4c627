import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { NoticeButtons } from "@/components/payments/notice-buttons";
import { DataTable } from "@/components/ui/data-table";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { PrintButton } from "@/components/print/print-button";
import { PrintSheet } from "@/components/print/print-sheet";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { paymentLabel, remittanceWord } from "@/lib/i18n";
import { isUuid } from "@/lib/ids";
import { formatMoney } from "@/lib/money";
import { insurerNames } from "@/lib/patients";
import { getRemittance } from "@/lib/payments";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payments"))("title") };
}

/** One remittance: its detail lines matched to claims (unmatched and short-paid highlighted), the payment notices, mark received / cleared. */
export default staffPage("payments", async function RemittancePage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  const [t, words, format, locale, db] = [await getTranslations("payments"), await getTranslations("statusWords"), await getFormatter(), await getLocale(), staff.db];
  const found = isUuid(id) ? await getRemittance(db, id) : undefined;
  await staff.audit({ action: "payments.remittance_view", target: { type: "remittance", id: found ? id : "unknown" }, outcome: found ? "success" : "failure" });
  if (!found) notFound();
  const { remittance: r, lines, notices } = found;
  const names = await insurerNames(db, locale);
  const state = remittanceWord(r);
  const day = (d: string) => format.dateTime(new Date(`${d}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  const money = (m: number) => formatMoney(m, locale, r.currency);
  const title = t("detail.title", { id: r.paymentIdentifier ?? r.platformId });
  return (
    <>
      {/* A remittance on paper (decision 123): the clinic, the date printed, page numbers; no menu, no buttons. */}
      <PrintSheet title={title} subject={names(r.insurerId ?? "")} />
      <nav className="no-print mb-3 text-sm">
        <Link href="/payments" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("detail.back")}
        </Link>
      </nav>
      <PageHeader
        title={title}
        actions={
          <span className="flex flex-wrap items-center gap-3">
            <Badge tone={state.tone}>{words(state.key)}</Badge>
            <PrintButton label={(await getTranslations("print"))("button")} />
          </span>
        }
      />
      <Card className="mb-6 p-5">
        <dl className="grid gap-3 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-500">{t("detail.paymentDate")}</dt>
            <dd>{day(r.paymentDate)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.payer")}</dt>
            <dd><bdi>{names(r.insurerId ?? "")}</bdi></dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.amount")}</dt>
            <dd className="tabular-nums font-semibold" data-testid="remittance-amount">{money(r.amountMinor)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.platformId")}</dt>
            <dd className="break-all font-mono text-xs" dir="ltr">{r.platformId}</dd>
          </div>
        </dl>
        <div className="mt-4 border-t border-slate-100 pt-4" data-testid="reconciliation" data-unallocated={r.unallocatedMinor}>
          <h2 className="mb-2 text-sm font-semibold text-slate-900">{t("detail.reconciliation")}</h2>
          <dl className="grid gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-500">{t("detail.linesTotal")}</dt>
              <dd className="tabular-nums" data-testid="lines-total">{money(r.linesMinor)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t("detail.feesTotal")}</dt>
              <dd className="tabular-nums" data-testid="fees-total">
                {money(r.earlyFeeMinor)} · {money(r.exchangeFeeMinor)}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">{t("detail.unallocated")}</dt>
              <dd className={r.unallocatedMinor === 0 ? "text-emerald-800" : "font-medium text-red-800"} data-testid="unallocated">
                {r.unallocatedMinor === 0 ? `✓ ${t("detail.balanced")}` : `⚠ ${t("detail.unbalanced", { amount: money(r.unallocatedMinor) })}`}
              </dd>
            </div>
          </dl>
        </div>
        <div className="no-print mt-5 border-t border-slate-100 pt-4">
          <NoticeButtons remittanceId={r.id} paid={Boolean(r.paidAt)} cleared={Boolean(r.clearedAt)} />
        </div>
      </Card>

      <h2 className="mb-2 text-lg font-semibold text-slate-900">{t("detail.lines")}</h2>
      <DataTable
        label={t("detail.lines")}
        testId="remittance-lines"
        className="mb-6 rounded-lg border border-slate-200 bg-white shadow-sm"
        rows={lines}
        rowKey={(l) => String(l.position)}
        rowProps={(l) => ({
          className: !l.submissionId && l.kind !== "advance" ? "bg-red-50" : l.shortPaid ? "bg-amber-50" : l.kind === "reversal" ? "bg-slate-50" : "",
          "data-testid": "remittance-line",
          "data-matched": String(Boolean(l.submissionId)),
          "data-short": String(l.shortPaid),
          "data-kind": l.kind,
        })}
        columns={[
          { id: "line", header: t("detail.line"), className: "px-3 py-2 tabular-nums", cell: (l) => l.position + 1 },
          {
            id: "claim",
            header: t("detail.claim"),
            className: "px-3 py-2",
            cell: (l) => {
              // What this claim has been paid over every remittance (not its adjudication words: "Paid" there means decided).
              const label = l.submissionId && l.benefitMinor !== null ? paymentLabel("complete", { paidMinor: l.paidTotalMinor ?? 0, benefitMinor: l.benefitMinor }) : undefined;
              return (
                <>
                  {l.submissionId ? (
                    <Link href={`/claims/${l.submissionId}`} className="font-mono text-xs text-brand-800 underline-offset-2 hover:underline" dir="ltr">
                      {l.requestIdentifierValue ?? l.requestPlatformId}
                    </Link>
                  ) : (
                    <span className="font-mono text-xs" dir="ltr">{l.requestIdentifierValue ?? l.requestPlatformId ?? "—"}</span>
                  )}
                  {label && <span className="ms-2"><Badge tone={label.tone}>{words(label.key)}</Badge></span>}
                </>
              );
            },
          },
          {
            id: "kind",
            header: t("detail.kind"),
            className: "px-3 py-2",
            cell: (l) => (
              <>
                {t(`detail.kinds.${l.kind === "payment" || l.kind === "adjustment" || l.kind === "advance" || l.kind === "reversal" ? l.kind : "other"}`)}
                {l.predecessorValue && (
                  <span className="block text-xs text-slate-500">
                    <bdi>{t("detail.reversalOf", { id: l.predecessorValue.slice(0, 8) })}</bdi>
                  </span>
                )}
              </>
            ),
          },
          { id: "paid", header: t("detail.paid"), align: "end", className: "px-3 py-2 tabular-nums", testId: "line-amount", cell: (l) => money(l.amountMinor) },
          {
            id: "fees",
            header: t("detail.fees"),
            className: "px-3 py-2 text-xs",
            testId: "line-fees",
            cell: (l) =>
              l.earlyFeeMinor === null && l.exchangeFeeMinor === null ? (
                "—"
              ) : (
                <>
                  {l.earlyFeeMinor !== null && <span className="block tabular-nums">{t("detail.earlyFee", { amount: money(l.earlyFeeMinor) })}</span>}
                  {l.exchangeFeeMinor !== null && <span className="block tabular-nums">{t("detail.exchangeFee", { amount: money(l.exchangeFeeMinor) })}</span>}
                  {l.componentGapMinor !== null && <span className="block font-medium text-red-800">⚠ {t("detail.componentGap", { amount: money(l.componentGapMinor) })}</span>}
                </>
              ),
          },
          { id: "settled", header: t("detail.settled"), align: "end", className: "px-3 py-2 tabular-nums", testId: "line-settled", cell: (l) => money(l.settledMinor) },
          { id: "benefit", header: t("detail.benefit"), align: "end", className: "px-3 py-2 tabular-nums", cell: (l) => (l.benefitMinor === null ? "—" : money(l.benefitMinor)) },
          {
            id: "match",
            header: t("detail.match"),
            className: "px-3 py-2",
            cell: (l) =>
              l.kind === "advance" && !l.submissionId ? (
                <span className="text-slate-700">{t("detail.advanceLine")}</span>
              ) : !l.submissionId ? (
                <span className="font-medium text-red-800">⚠ {t("detail.unmatched")}</span>
              ) : l.kind === "reversal" ? (
                <span className="font-medium text-slate-800">↺ {t("detail.reversed")}</span>
              ) : l.shortPaid ? (
                <span className="font-medium text-amber-900">⚠ {t("detail.shortBy", { amount: money(l.shortByMinor) })}</span>
              ) : (
                <span className="text-emerald-800">{t("detail.matched")}</span>
              ),
          },
        ]}
      />

      <h2 className="mb-2 text-lg font-semibold text-slate-900">{t("detail.notices")}</h2>
      <Card className="p-4">
        {notices.length === 0 ? (
          <p className="text-sm text-slate-500">{t("detail.noNotices")}</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="notices">
            {notices.map((n, i) => (
              <li key={i} data-testid="notice" data-status={n.paymentStatus} data-outcome={n.outcome}>
                <time dateTime={n.sentAt.toISOString()}>{format.dateTime(n.sentAt, { dateStyle: "medium", timeStyle: "short" })}</time> —{" "}
                {words(`paymentNotice.${n.paymentStatus === "paid" ? "paid" : "cleared"}`)} ·{" "}
                {n.outcome === "accepted" ? t("detail.accepted") : <span className="text-red-800">{t("detail.failed", { error: n.error ?? "" })}</span>}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
});

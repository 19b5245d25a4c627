import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { NoticeButtons } from "@/components/payments/notice-buttons";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { audit } from "@/lib/audit";
import { actorOf, requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http";
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
export default async function RemittancePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireArea("payments");
  const { id } = await params;
  const [t, words, format, locale, db, ctx] = [await getTranslations("payments"), await getTranslations("statusWords"), await getFormatter(), await getLocale(), await getDb(), await requestContext()];
  const found = isUuid(id) ? await getRemittance(db, id) : undefined;
  await audit(db, { actor: actorOf(user), action: "payments.remittance_view", target: { type: "remittance", id: found ? id : "unknown" }, outcome: found ? "success" : "failure", requestId: ctx.requestId, ip: ctx.ip });
  if (!found) notFound();
  const { remittance: r, lines, notices } = found;
  const names = await insurerNames(db, locale);
  const state = remittanceWord(r);
  const day = (d: string) => format.dateTime(new Date(`${d}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  const money = (m: number) => formatMoney(m, locale, r.currency);
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/payments" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("detail.back")}
        </Link>
      </nav>
      <PageHeader title={t("detail.title", { id: r.paymentIdentifier ?? r.platformId })} actions={<Badge tone={state.tone}>{words(state.key)}</Badge>} />
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
        <div className="mt-5 border-t border-slate-100 pt-4">
          <NoticeButtons remittanceId={r.id} paid={Boolean(r.paidAt)} cleared={Boolean(r.clearedAt)} />
        </div>
      </Card>

      <h2 className="mb-2 text-lg font-semibold text-slate-900">{t("detail.lines")}</h2>
      <div className="mb-6 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="remittance-lines">
          <caption className="sr-only">{t("detail.lines")}</caption>
          <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-3 text-start">{t("detail.line")}</th>
              <th scope="col" className="px-3 py-3 text-start">{t("detail.claim")}</th>
              <th scope="col" className="px-3 py-3 text-end">{t("detail.paid")}</th>
              <th scope="col" className="px-3 py-3 text-end">{t("detail.benefit")}</th>
              <th scope="col" className="px-3 py-3 text-start">{t("detail.match")}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {lines.map((l) => {
              // What this claim has been paid over every remittance (not its adjudication words: "Paid" there means decided).
              const label = l.submissionId && l.benefitMinor !== null ? paymentLabel("complete", { paidMinor: l.paidTotalMinor ?? 0, benefitMinor: l.benefitMinor }) : undefined;
              const tone = !l.submissionId ? "bg-red-50" : l.shortPaid ? "bg-amber-50" : "";
              return (
                <tr key={l.position} className={tone} data-testid="remittance-line" data-matched={Boolean(l.submissionId)} data-short={l.shortPaid}>
                  <td className="px-3 py-2 tabular-nums">{l.position + 1}</td>
                  <td className="px-3 py-2">
                    {l.submissionId ? (
                      <Link href={`/claims/${l.submissionId}`} className="font-mono text-xs text-brand-800 underline-offset-2 hover:underline" dir="ltr">
                        {l.requestIdentifierValue ?? l.requestPlatformId}
                      </Link>
                    ) : (
                      <span className="font-mono text-xs" dir="ltr">{l.requestIdentifierValue ?? l.requestPlatformId ?? "—"}</span>
                    )}
                    {label && <span className="ms-2"><Badge tone={label.tone}>{words(label.key)}</Badge></span>}
                  </td>
                  <td className="px-3 py-2 text-end tabular-nums">{money(l.amountMinor)}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{l.benefitMinor === null ? "—" : money(l.benefitMinor)}</td>
                  <td className="px-3 py-2">
                    {!l.submissionId ? (
                      <span className="font-medium text-red-800">⚠ {t("detail.unmatched")}</span>
                    ) : l.shortPaid ? (
                      <span className="font-medium text-amber-900">⚠ {t("detail.shortBy", { amount: money((l.benefitMinor ?? 0) - (l.paidTotalMinor ?? 0)) })}</span>
                    ) : (
                      <span className="text-emerald-800">{t("detail.matched")}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

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
}

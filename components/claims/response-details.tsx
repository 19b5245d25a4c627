import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import type { DecisionView } from "@/lib/submissions";
import { describeReference, type CodedView, type ExtensionView, type MoneyView } from "@/lib/fhir/browser";
import { noteWords } from "@/lib/i18n";
import { formatMoney } from "@/lib/money";
import { PlatformWordsText } from "./platform-words";

/**
 * Everything else the platform said in its ClaimResponse, from the reader's view: process notes,
 * errors with their codes and the element they name, payment, insurance, the prior-authorization
 * reference with its validity, and "Other data from the platform" — every extension the portal
 * does not interpret, listed readably instead of hidden. Sections without data are left out.
 */
export async function ResponseDetails({ decision, show }: { decision: DecisionView; show: { payment?: boolean; preAuth?: boolean } }) {
  const t = await getTranslations("adjudication");
  const format = await getFormatter();
  const locale = await getLocale();
  const r = decision.response;
  const coded = (c: CodedView | undefined) => (c ? [c.display ?? c.text, c.code].filter(Boolean).join(" · ") : "—");
  const amount = (m: MoneyView | undefined) =>
    m ? (
      <span className="tabular-nums">
        {m.minor !== undefined ? formatMoney(m.minor, locale, m.currency) : <bdi dir="ltr">{`${m.value} ${m.currency ?? ""}`}</bdi>}
      </span>
    ) : (
      "—"
    );
  const day = (value: string | undefined) => {
    if (!value) return "—";
    const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
    return Number.isNaN(date.getTime()) ? value : format.dateTime(date, { dateStyle: "medium", timeZone: "UTC" });
  };
  const h = "mb-2 text-sm font-semibold text-slate-900";
  const languageName = (code: string) => {
    try {
      return new Intl.DisplayNames([locale], { type: "language" }).of(code);
    } catch {
      return undefined;
    }
  };
  const row = (label: string, value: React.ReactNode, testId?: string) => (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-slate-500">{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
  const paymentType = r.payment?.type?.code;

  return (
    <div className="space-y-5 text-sm">
      {show.preAuth && (r.preAuthRef || r.preAuthPeriod) && (
        <section aria-labelledby="preauth-h" data-testid="response-preauth">
          <h3 id="preauth-h" className={h}>{t("preAuth.title")}</h3>
          <dl className="space-y-1">
            {row(t("preAuth.ref"), <bdi dir="ltr" className="font-mono">{r.preAuthRef ?? "—"}</bdi>)}
            {r.preAuthPeriod &&
              row(
                t("preAuth.period"),
                [r.preAuthPeriod.start && t("preAuth.from", { start: day(r.preAuthPeriod.start) }), r.preAuthPeriod.end && t("preAuth.until", { end: day(r.preAuthPeriod.end) })]
                  .filter(Boolean)
                  .join(" "),
                "preauth-period",
              )}
          </dl>
        </section>
      )}

      {r.processNotes.length > 0 && (
        <section aria-labelledby="notes-h" data-testid="process-notes">
          <h3 id="notes-h" className={h}>{t("notes.title")}</h3>
          <ol className="space-y-2">
            {r.processNotes.map((n, i) => (
              <li key={i} className="rounded-md border border-slate-100 bg-slate-50 px-3 py-2">
                <div className="flex items-start gap-2" data-testid="process-note">
                  {n.number !== undefined && (
                    <span className="inline-block min-w-5 rounded bg-white px-1 text-center font-mono text-xs text-slate-500 ring-1 ring-slate-200">{n.number}</span>
                  )}
                  <PlatformWordsText value={noteWords(n.text, locale)} platformLang={n.language?.code} className="min-w-0 flex-1" />
                </div>
                <p className="mt-1 text-xs text-slate-500">
                  {[n.type ? (["display", "print", "printoper"].includes(n.type) ? t(`notes.type.${n.type as "display"}`) : n.type) : undefined, n.language?.code ? t("notes.language", { language: languageName(n.language.code) ?? n.language.display ?? n.language.code }) : undefined]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              </li>
            ))}
          </ol>
        </section>
      )}

      {r.errors.length > 0 && (
        <section aria-labelledby="errors-h" data-testid="response-errors">
          <h3 id="errors-h" className={h}>{t("errors.title")}</h3>
          <ul className="space-y-1">
            {r.errors.map((e, i) => (
              <li key={i} className="flex flex-wrap items-baseline gap-x-2">
                <span dir="ltr" className="font-mono text-xs text-red-800">{e.code?.code ?? "—"}</span>
                <bdi className="font-medium">{e.code?.display ?? e.code?.text ?? ""}</bdi>
                {e.element && (
                  <span className="text-xs text-slate-600">
                    {t("errors.element")}: <bdi dir="ltr" className="font-mono">{e.element}</bdi>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      {show.payment && r.payment && (
        <section aria-labelledby="payment-h" data-testid="response-payment">
          <h3 id="payment-h" className={h}>{t("payment.title")}</h3>
          <dl className="space-y-1">
            {row(t("payment.amount"), amount(r.payment.amount), "payment-amount")}
            {r.payment.date && row(t("payment.date"), day(r.payment.date))}
            {r.payment.type && row(t("payment.type"), paymentType === "complete" || paymentType === "partial" ? t(`payment.types.${paymentType}`) : coded(r.payment.type))}
            {r.payment.adjustment && row(t("payment.adjustment"), amount(r.payment.adjustment))}
            {r.payment.adjustmentReason && row(t("payment.adjustmentReason"), <bdi>{coded(r.payment.adjustmentReason)}</bdi>)}
            {r.payment.identifier?.value && row(t("payment.identifier"), <bdi dir="ltr" className="font-mono text-xs">{r.payment.identifier.value}</bdi>)}
          </dl>
        </section>
      )}

      {r.insurance.length > 0 && (
        <section aria-labelledby="insurance-h" data-testid="response-insurance">
          <h3 id="insurance-h" className={h}>{t("insurance.title")}</h3>
          <ul className="space-y-1">
            {r.insurance.map((i, n) => (
              <li key={n}>
                {i.sequence !== undefined && <span className="me-2 text-slate-500">{t("insurance.sequence", { sequence: i.sequence })}</span>}
                {i.focal && <span className="me-2 font-medium">{t("insurance.focal")}</span>}
                {i.coverage && (
                  <span>
                    {t("insurance.coverage")}: <bdi dir="ltr" className="font-mono text-xs">{describeReference(i.coverage)}</bdi>
                  </span>
                )}
                {i.businessArrangement && (
                  <span className="ms-2">
                    {t("insurance.arrangement")}: <bdi dir="ltr">{i.businessArrangement}</bdi>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      {r.otherExtensions.length > 0 && (
        <section aria-labelledby="other-h" data-testid="other-data">
          <h3 id="other-h" className={h}>{t("other.title")}</h3>
          <p className="mb-2 text-xs text-slate-500">{t("other.intro")}</p>
          <ExtensionList extensions={r.otherExtensions} labels={{ where: t("other.where"), modifier: t("other.modifier") }} />
        </section>
      )}
    </div>
  );
}

function ExtensionList({ extensions, labels }: { extensions: ExtensionView[]; labels: { where: string; modifier: string } }) {
  return (
    <ul className="space-y-2">
      {extensions.map((e, i) => (
        <li key={i} className="rounded-md border border-slate-100 px-3 py-2" data-testid="other-data-entry">
          <p className="break-all font-mono text-xs text-slate-700" dir="ltr">
            {e.url} <span aria-hidden>→</span> <span className="font-semibold text-slate-900">{e.value ?? ""}</span>
          </p>
          <p className="mt-1 text-xs text-slate-500">
            {labels.where}{" "}
            <bdi dir="ltr" className="font-mono">
              {e.path}
              {e.valueType ? ` (${e.valueType})` : ""}
            </bdi>
            {e.modifier && <span className="ms-2 font-medium text-amber-800">{labels.modifier}</span>}
          </p>
          {e.children && <div className="mt-2 ps-4"><ExtensionList extensions={e.children} labels={labels} /></div>}
        </li>
      ))}
    </ul>
  );
}

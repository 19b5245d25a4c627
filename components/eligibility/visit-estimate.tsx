"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { CodeCombobox, useCodeWords } from "@/components/coding/code-combobox";
import { PrintButton } from "@/components/print/print-button";
import { Button } from "@/components/ui/button";
import { TableFrame } from "@/components/ui/table-frame";
import { estimateVisitAction, type VisitEstimate } from "@/lib/eligibility/browser";
import { formatMoney } from "@/lib/money/browser";
import { itemSystemsOfProtocol, type PlatformProtocol } from "@/lib/submissions/browser";

/** A planned service: a code of one of the protocol's lists. */
interface Planned {
  system: string;
  code: string;
}

/** A code's words from the catalogue (cached per system and code, so the chip and the table ask once). */
function CodeWords({ system, code }: { system: string; code: string }) {
  const lang = useLocale() === "ar" ? "ar" : "en";
  const hit = useCodeWords(system, [code]).get(code);
  return <>{hit ? (lang === "ar" && hit.ar) || hit.en : ""}</>;
}

/**
 * "Estimate for this visit" on an eligibility result (docs/decisions/091): the front desk picks
 * the planned services and sees, per service, the contract price, what the insurance pays, the
 * patient's share (and how much of it goes to the annual deductible), VAT and whether an
 * authorization is needed; what is left of the deductible and the out-of-pocket maximum; the
 * patient's document and the VAT rate it sets — printable, in either language. Only this check's
 * patient is on it. The services are picked from every code list of the portal's protocol (the
 * exchange's own lists; CPT too in the spec's REST), searched together in the code catalogue.
 */
export function VisitEstimatePanel({ checkId, servicedDate, protocol = "rest" }: { checkId: string; servicedDate: string; protocol?: PlatformProtocol }) {
  const t = useTranslations("eligibility.estimate");
  const tc = useTranslations("coding");
  const locale = useLocale();
  const systems = itemSystemsOfProtocol(protocol);
  const [planned, setPlanned] = useState<Planned[]>([]);
  const [estimate, setEstimate] = useState<VisitEstimate>();
  const [problem, setProblem] = useState<string>();
  const [pending, start] = useTransition();
  const money = (minor: number) => formatMoney(minor, locale);
  const change = (next: Planned[]) => {
    setPlanned(next);
    setEstimate(undefined);
  };
  const documentName = (type: string) => (type === "nationalId" || type === "iqama" || type === "passport" || type === "borderNumber" ? t(`documentTypes.${type}`) : type);

  const run = () =>
    start(async () => {
      setProblem(undefined);
      if (planned.length === 0) return setProblem(t("pickOne"));
      try {
        const result = await estimateVisitAction({ checkId, services: planned.map((p) => ({ system: p.system, code: p.code, quantity: 1 })) });
        if (result.ok) setEstimate(result.estimate);
        else setProblem(t("failed"));
      } catch {
        setProblem(t("failed"));
      }
    });

  return (
    // No estimate yet: the section is a form to fill, nothing for the paper (decision 123) — not even its heading.
    <section aria-labelledby="estimate-title" className={`rounded-lg border border-slate-200 bg-white p-5 shadow-sm print:border-0 print:shadow-none ${estimate ? "" : "no-print"}`} data-testid="visit-estimate">
      <h2 id="estimate-title" className="mb-1 text-base font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="no-print mb-3 text-sm text-slate-600">{t("intro", { date: servicedDate })}</p>
      <div className="no-print flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <div className="min-w-0" data-testid="estimate-services">
            <CodeCombobox
              systems={systems}
              label={t("services")}
              hint={t("servicesHint")}
              value=""
              clearOnSelect
              exclude={planned.map((p) => p.code)}
              onChange={(code, system) => code && system && !planned.some((p) => p.system === system && p.code === code) && change([...planned, { system, code }])}
            />
            {planned.length > 0 && (
              <ol className="mt-2 flex flex-wrap gap-2" aria-label={tc("chosen", { label: t("services") })}>
                {planned.map((p, i) => (
                  <li key={`${p.system}|${p.code}`} className="inline-flex items-center gap-2 rounded-full border border-brand-600/30 bg-brand-50 ps-3 pe-1 py-1 text-sm">
                    <span className="text-xs text-slate-500">{i + 1}.</span>
                    <span dir="ltr" className="font-mono font-semibold">
                      {p.code}
                    </span>
                    <span className="text-slate-700">
                      <CodeWords system={p.system} code={p.code} />
                    </span>
                    <button
                      type="button"
                      onClick={() => change(planned.filter((other) => other !== p))}
                      className="rounded-full px-2 text-slate-600 hover:bg-white hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                      aria-label={tc("remove", { code: p.code })}
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>
        <Button type="button" busy={pending} onClick={run} data-testid="estimate-run">
          {t("estimate")}
        </Button>
        {estimate && <PrintButton label={t("print")} />}
      </div>
      <div role="status" aria-live="polite" className="mt-3">
        {problem && <p className="text-sm text-red-800">{problem}</p>}
        {estimate && (
          <div className="space-y-2">
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2" data-testid="estimate-facts">
              <div className="min-w-0">
                <dt className="text-slate-500">{t("document")}</dt>
                <dd className="font-medium text-slate-900" data-testid="estimate-document">
                  {documentName(estimate.patient.documentType)} <bdi dir="ltr" className="font-mono">{estimate.patient.documentNumber}</bdi>
                </dd>
              </div>
              <div className="min-w-0">
                <dt className="text-slate-500">{t("vat")}</dt>
                <dd className="font-medium text-slate-900" data-testid="estimate-vat-rate">
                  {estimate.vatPercent > 0 ? t("vatResident", { percent: estimate.vatPercent }) : t("vatCitizen")}
                </dd>
              </div>
              {estimate.deductible && (
                <div className="min-w-0" data-testid="estimate-deductible-left">
                  <dt className="text-slate-500">{t("deductibleLeft")}</dt>
                  <dd className="font-medium tabular-nums text-slate-900">{t("annualLeft", { left: money(estimate.deductible.leftMinor), limit: money(estimate.deductible.limitMinor), after: money(estimate.deductible.leftAfterMinor) })}</dd>
                </div>
              )}
              {estimate.outOfPocket && (
                <div className="min-w-0" data-testid="estimate-out-of-pocket-left">
                  <dt className="text-slate-500">{t("outOfPocketLeft")}</dt>
                  <dd className="font-medium tabular-nums text-slate-900">{t("annualLeft", { left: money(estimate.outOfPocket.leftMinor), limit: money(estimate.outOfPocket.limitMinor), after: money(estimate.outOfPocket.leftAfterMinor) })}</dd>
                </div>
              )}
            </dl>
            <TableFrame label={t("title")} testId="estimate-table" maxHeight="">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className="px-3 py-2 text-start">{t("columns.service")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("columns.price")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("columns.payer")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("columns.patient")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("columns.vat")}</th>
                  <th scope="col" className="px-3 py-2 text-end">{t("columns.total")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {estimate.lines.map((l) => (
                  <tr key={l.sequence} data-testid="estimate-line" data-code={l.code}>
                    <td className="px-3 py-1.5">
                      <bdi className="font-mono text-xs text-slate-500" dir="ltr">{l.code}</bdi> <CodeWords system={l.system} code={l.code} />
                      {l.authorizationRequired && <span className="ms-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900" data-testid="estimate-auth">{t("authorization")}</span>}
                      {l.notCovered && <span className="ms-2 rounded bg-red-100 px-1.5 text-xs text-red-900">{t("notCovered")}</span>}
                    </td>
                    <td className="px-3 py-1.5 text-end tabular-nums" data-label={t("columns.price")}>{money(l.unitPriceMinor ?? 0)}</td>
                    <td className="px-3 py-1.5 text-end tabular-nums" data-label={t("columns.payer")}>{money(l.payerMinor)}</td>
                    <td className="px-3 py-1.5 text-end tabular-nums" data-label={t("columns.patient")}>
                      {money(l.patientMinor)}
                      {l.deductibleMinor > 0 && <span className="block text-xs text-slate-500" data-testid="estimate-line-deductible">{t("ofWhichDeductible", { amount: money(l.deductibleMinor) })}</span>}
                    </td>
                    <td className="px-3 py-1.5 text-end tabular-nums" data-label={t("columns.vat")}>{money(l.patientVatMinor)}</td>
                    <td className="px-3 py-1.5 text-end font-semibold tabular-nums" data-testid="estimate-patient-total" data-label={t("columns.total")} data-key="">{money(l.patientTotalMinor)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot className="border-t-2 border-slate-300 font-semibold">
                <tr>
                  <th scope="row" className="px-3 py-2 text-start">{t("totals")}</th>
                  <td className="px-3 py-2 text-end tabular-nums" data-label={t("columns.price")}>{money(estimate.totals.eligibleMinor)}</td>
                  <td className="px-3 py-2 text-end tabular-nums" data-label={t("columns.payer")}>{money(estimate.totals.payerMinor)}</td>
                  <td className="px-3 py-2 text-end tabular-nums" data-label={t("columns.patient")}>{money(estimate.totals.patientMinor)}</td>
                  <td className="px-3 py-2 text-end tabular-nums" data-label={t("columns.vat")}>{money(estimate.totals.patientVatMinor)}</td>
                  <td className="px-3 py-2 text-end tabular-nums" data-testid="estimate-total" data-label={t("columns.total")}>{money(estimate.totals.patientTotalMinor)}</td>
                </tr>
              </tfoot>
            </TableFrame>
            <p className="text-sm font-semibold text-slate-900" data-testid="estimate-patient-pays">{t("patientPays", { amount: money(estimate.totals.patientTotalMinor) })}</p>
            <p className="text-sm text-slate-700">{estimate.vatPercent > 0 ? t("vatNote", { percent: estimate.vatPercent }) : t("vatNone")}</p>
            {estimate.unpriced.length > 0 && <p className="text-sm text-amber-900">{t("unpriced", { codes: estimate.unpriced.join(", ") })}</p>}
            <p className="text-xs text-slate-500">{t("disclaimer", { date: estimate.servicedDate })}</p>
          </div>
        )}
      </div>
    </section>
  );
}

"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { claimSharesAction, type LiveShareLine } from "@/lib/contracts/browser";
import { formatMoney } from "@/lib/money/browser";
import { parseAmountMinor, parseQuantity } from "@/lib/submissions/browser";

type Answer = { lines: LiveShareLine[]; totals: { payerMinor: number; patientMinor: number; patientVatMinor: number; patientTotalMinor: number }; answered: boolean; unknownLines: number[] };
type State = { kind: "idle" } | { kind: "failed" } | { kind: "ready"; answer: Answer };

const DEBOUNCE_MS = 450;

/**
 * The claim form's live shares (docs/decisions/091): per line the insurance's part, the patient's
 * share (and how much of it is deductible) and the VAT on it, with totals, asked of the server a
 * moment after the lines stop changing — the same arithmetic the submit writes on the claim.
 * Loaded lazily by the form (its own chunk) once a patient and coverage are chosen, so
 * /claims/new's first load does not carry it.
 */
export default function LiveShares({ patientId, coverageId, items }: { patientId: string; coverageId: string; items: readonly { system?: string; code: string; servicedDate: string; quantity: string; unitPrice: string }[] }) {
  const t = useTranslations("claims.liveShares");
  const locale = useLocale();
  const money = (minor: number) => formatMoney(minor, locale);
  const [state, setState] = useState<State>({ kind: "idle" });
  const [pending, setPending] = useState(false);
  const asked = useRef(0);
  const key = JSON.stringify([patientId, coverageId, items.map((i) => [i.code, i.servicedDate, i.quantity, i.unitPrice, i.system ?? ""])]);

  useEffect(() => {
    if (!patientId || !coverageId) return;
    const n = ++asked.current;
    const timer = setTimeout(() => {
      setPending(true);
      const [, , lines] = JSON.parse(key) as [string, string, string[][]];
      // The complete lines only, parsed as the form parses them (lib/submissions form-money).
      const complete = lines.slice(0, 100).flatMap(([code = "", servicedDate = "", quantity = "", unitPrice = "", system = ""], index) => {
        const q = parseQuantity(quantity);
        const price = parseAmountMinor(unitPrice);
        return /^\S{1,60}$/.test(code.trim()) && /^\d{4}-\d{2}-\d{2}$/.test(servicedDate) && q !== undefined && price !== undefined ? [{ index, system, code: code.trim(), servicedDate, quantity: q, unitPriceMinor: price }] : [];
      });
      claimSharesAction({ patientId, coverageId, items: complete })
        .then((result) => {
          if (n !== asked.current) return; // a newer edit is on its way
          setState(result.ok ? { kind: "ready", answer: result } : { kind: "failed" });
        })
        .catch(() => n === asked.current && setState({ kind: "failed" }))
        .finally(() => n === asked.current && setPending(false));
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, patientId, coverageId]);

  const body = () => {
    if (state.kind === "failed") return <p className="text-sm text-amber-900">{t("failed")}</p>;
    if (state.kind === "idle") return <p className="text-sm text-slate-500">{t("updating")}</p>;
    const { lines, totals, unknownLines } = state.answer;
    if (lines.length === 0) return <p className="text-sm text-slate-600">{t("noLines")}</p>;
    // Decision 123: where no eligibility answer covers a line's date, the patient's share (and
    // so the insurance's part and the VAT) is unknown — said in words, never guessed as 0.
    const unknown = new Set(unknownLines);
    const anyUnknown = lines.some((l) => unknown.has(l.index));
    const figures = (payer: number, patient: number, vat: number, open: boolean, testId?: string) =>
      open ? (
        <span className="col-span-3 text-end text-sm font-normal text-amber-900" data-testid={testId ? `${testId}-unknown` : "live-share-unknown"}>
          {t("unknown")}
        </span>
      ) : (
        <>
          <Figure label={t("payer")} value={money(payer)} {...(testId ? { testId: `${testId}-payer` } : {})} />
          <Figure label={t("patient")} value={money(patient)} {...(testId ? { testId: `${testId}-patient` } : {})} />
          <Figure label={t("vat")} value={money(vat)} {...(testId ? { testId: `${testId}-vat` } : {})} />
        </>
      );
    return (
      <>
        {anyUnknown && <p className="mb-2 text-sm text-amber-900" data-testid="live-shares-no-answer">{t("noAnswer")}</p>}
        <ul className="divide-y divide-slate-100 text-sm">
          {lines.map((l) => (
            <li key={l.index} className="grid grid-cols-3 gap-x-3 gap-y-1 py-2 sm:grid-cols-[minmax(0,1.4fr)_repeat(3,minmax(0,1fr))]" data-testid="live-share-line" data-line={l.index + 1}>
              <span className="col-span-3 min-w-0 font-medium text-slate-900 sm:col-span-1">
                {t("line", { n: l.index + 1 })} · <bdi dir="ltr" className="font-mono text-xs">{l.code}</bdi>
                {l.notCovered && <span className="ms-2 rounded bg-red-100 px-1.5 text-xs font-normal text-red-900">{t("notCovered")}</span>}
                {!unknown.has(l.index) && l.deductibleMinor > 0 && <span className="block text-xs font-normal text-slate-500">{t("ofWhichDeductible", { amount: money(l.deductibleMinor) })}</span>}
              </span>
              {figures(l.payerMinor, l.patientMinor, l.patientVatMinor, unknown.has(l.index))}
            </li>
          ))}
          <li className="grid grid-cols-3 gap-x-3 gap-y-1 border-t-2 border-slate-300 py-2 font-semibold sm:grid-cols-[minmax(0,1.4fr)_repeat(3,minmax(0,1fr))]" data-testid="live-shares-totals">
            <span className="col-span-3 sm:col-span-1">{t("totals")}</span>
            {figures(totals.payerMinor, totals.patientMinor, totals.patientVatMinor, anyUnknown, "live-total")}
          </li>
        </ul>
        <p className="mt-1 text-sm text-slate-700" aria-live="polite" data-testid="live-shares-patient-pays">
          {anyUnknown ? t("patientPaysUnknown") : t("patientPays", { amount: money(totals.patientTotalMinor) })}
        </p>
      </>
    );
  };

  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-shares" data-testid="live-shares" aria-busy={pending || undefined}>
      <h2 id="sec-shares" className="mb-1 flex flex-wrap items-baseline gap-x-3 text-base font-semibold text-slate-900">
        {t("title")}
        {pending && <span className="text-xs font-normal text-slate-500">{t("updating")}</span>}
      </h2>
      <p className="mb-3 text-sm text-slate-600">{t("intro")}</p>
      {body()}
    </section>
  );
}

/** One amount with its label; the label shows above it (every width), so the columns need no header row. */
function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <span className="min-w-0 text-end">
      <span className="block text-xs font-normal text-slate-500">{label}</span>
      <span className="block whitespace-nowrap tabular-nums" data-testid={testId}>
        {value}
      </span>
    </span>
  );
}

import { getLocale, getTranslations } from "next-intl/server";
import { formatAmount } from "@/components/coding/format";
import { currencySymbol } from "@/lib/money";
import { Badge } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import type { DecisionLine, DecisionView } from "@/lib/submissions";
import { CODE_SYSTEMS, type Decision } from "@/lib/fhir/browser";
import { getDb } from "@/lib/db";
import { lookupCodes } from "@/lib/terminology";
import type { SubmissionKind } from "@/lib/db";
import { DECISION_STATUS, noteWords, outcomeOfView, reasonWords, statusLabel } from "@/lib/i18n";
import { PlatformWordsText } from "./platform-words";

const TONE: Record<Decision, "green" | "amber" | "red" | "blue" | "slate"> = {
  approved: "green",
  "partly-approved": "amber",
  denied: "red",
  pended: "blue",
  error: "red",
};

/** Test ids of the two pages' tables (their browser tests predate this component). */
const IDS = {
  claim: { table: "adjudication-table", benefitTotal: "benefit-total", shareTotal: "share-total" },
  authorization: { table: "decision-table", benefitTotal: "decision-benefit-total", shareTotal: "decision-share-total" },
} as const;

/**
 * The decision per service, read from the stored ClaimResponse by the tolerant reader: per item and
 * per item the payer added, the decision and its reasons in words (the platform's own text as a
 * secondary line), the platform's outcome marker, notes, errors, and exact amounts.
 */
export async function DecisionLines({ decision, variant }: { decision: DecisionView; variant: "claim" | "authorization" }) {
  const t = await getTranslations("adjudication");
  const locale = (await getLocale()) === "ar" ? "ar" : "en";
  const ids = IDS[variant];
  // The services in words, from the catalogue of each line's own code list (CPT when a line names none).
  const systemOf = (line: DecisionLine) => line.codeSystem || CODE_SYSTEMS.cpt;
  const bySystem = new Map<string, string[]>();
  for (const line of decision.lines) if (line.code) bySystem.set(systemOf(line), [...(bySystem.get(systemOf(line)) ?? []), line.code]);
  const db = bySystem.size > 0 ? await getDb() : undefined;
  const words = new Map(
    (await Promise.all([...bySystem].map(([system, codes]) => lookupCodes(db!, system, codes)))).flat().map((hit) => [`${hit.system}|${hit.code}`, hit[locale] || hit.en]),
  );
  const money = { className: "px-3 py-2 tabular-nums", align: "end", dir: "ltr" } as const;
  // A figure the payer did not state is said so, never worked out (docs/decisions/098).
  const stated = (minor: number | undefined) => (minor === undefined ? <span className="text-xs font-normal text-slate-500" dir="auto">{t("notStated")}</span> : formatAmount(minor));
  // The patient's share, with the copay and VAT the payer stated under it (one column: the table stays readable).
  const share = (a: { shareMinor?: number; copayMinor?: number; taxMinor?: number }, ids = { share: "share", copay: "copay", tax: "tax" }) => (
    <>
      <span data-testid={ids.share}>{stated(a.shareMinor)}</span>
      <span className="mt-0.5 block whitespace-nowrap text-xs font-normal text-slate-500">
        <bdi>{t("col.copay")}</bdi> <span data-testid={ids.copay}>{stated(a.copayMinor)}</span>
      </span>
      <span className="block whitespace-nowrap text-xs font-normal text-slate-500">
        <bdi>{t("col.tax")}</bdi> <span data-testid={ids.tax}>{stated(a.taxMinor)}</span>
      </span>
    </>
  );

  const service = (line: DecisionLine) => {
    const known = line.code ? words.get(`${systemOf(line)}|${line.code}`) : undefined;
    return (
      <>
        <span dir="ltr" className="font-mono font-semibold">
          {line.code ?? "—"}
        </span>
        {(known ?? line.serviceText) && <span className="ms-2 text-slate-700">{known ?? <bdi>{line.serviceText}</bdi>}</span>}
        {line.servicedDate && (
          <span className="block text-xs text-slate-500 tabular-nums" dir="ltr">
            {line.servicedDate}
          </span>
        )}
        {line.kind === "addItem" && (
          <span className="mt-1 block text-xs font-medium text-sky-800" data-testid="added-item-label">
            {t("added")}
            {line.relatesTo.length > 0 && ` · ${t("relatesTo", { items: line.relatesTo.join(", ") })}`}
          </span>
        )}
      </>
    );
  };

  const columns: Column<DecisionLine>[] = [
    { id: "line", header: t("col.line"), rowHeader: true, className: "px-3 py-2 font-normal text-slate-500", cell: (line) => (line.kind === "addItem" ? "+" : (line.sequence ?? "—")) },
    { id: "service", header: t("col.service"), className: "min-w-40 px-3 py-2", cell: service },
    {
      id: "decision",
      header: t("col.decision"),
      className: "min-w-44 px-3 py-2",
      testId: "line-decision",
      cell: (line) => (
        <>
          <Badge tone={line.zeroBenefit ? "amber" : TONE[line.decision]}>{line.zeroBenefit ? t("zeroBenefit") : t(`decision.${line.decision}`)}</Badge>
          {line.reasons.map((r, i) => (
            <PlatformWordsText key={`${r.system}|${r.code}|${i}`} value={reasonWords(r, locale)} testId="line-reason" className="mt-1 text-xs text-slate-700" />
          ))}
          {line.outcome && (
            <span className="mt-1 block text-xs text-slate-500" data-testid="line-outcome">
              {t("outcomeLabel", { outcome: t(`outcome.${line.outcome}`) })}
            </span>
          )}
          {line.errors.map((e, i) => (
            <span key={i} className="mt-1 block text-xs text-red-800">
              <span dir="ltr" className="font-mono">{e.code?.code ?? "—"}</span> <bdi>{e.code?.display ?? e.code?.text ?? ""}</bdi>
            </span>
          ))}
          {line.notes.map((n, i) => (
            <PlatformWordsText key={i} value={noteWords(n.text, locale)} platformLang={n.language?.code} testId="line-note" className="mt-1 text-xs italic text-slate-600" />
          ))}
        </>
      ),
    },
    { id: "quantity", header: t("col.quantity"), ...money, cell: (line) => `${line.approvedQuantity ?? "—"} / ${line.quantity ?? "—"}` },
    { id: "submitted", header: t("col.submitted"), ...money, cell: (line) => formatAmount(line.submittedMinor) },
    { id: "eligible", header: t("col.eligible"), ...money, testId: "eligible", cell: (line) => formatAmount(line.eligibleMinor) },
    { id: "share", header: t("col.share"), ...money, cell: (line) => share(line) },
    { id: "benefit", header: t("col.benefit"), ...money, className: `${money.className} font-semibold`, testId: "benefit", keyFigure: true, cell: (line) => formatAmount(line.benefitMinor) },
  ];
  const total = `${money.className} text-end`;

  return (
    <div>
      <DataTable
        label={t("caption")}
        testId={ids.table}
        columns={columns}
        rows={decision.lines.map((line, index) => ({ ...line, index }))}
        rowKey={(line) => `${line.kind}-${line.sequence ?? line.index}-${line.index}`}
        rowProps={(line) => ({ className: `align-top ${line.kind === "addItem" ? "bg-sky-50/40" : ""}`, "data-testid": line.kind === "addItem" ? "added-row" : "adjudication-row" })}
        footer={
          <tfoot className="border-t border-slate-200 bg-slate-50 font-semibold">
            <tr>
              <th scope="row" colSpan={4} className="px-3 py-2 text-start">
                {t("total")} <span className="text-xs font-normal text-slate-500">({currencySymbol(locale)})</span>
              </th>
              <td className={total} dir="ltr" data-label={t("col.submitted")}>{formatAmount(decision.totals.submittedMinor)}</td>
              <td className={total} dir="ltr" data-label={t("col.eligible")}>{formatAmount(decision.totals.eligibleMinor)}</td>
              <td className={total} dir="ltr" data-label={t("col.share")}>{share(decision.totals, { share: ids.shareTotal, copay: "copay-total", tax: "tax-total" })}</td>
              <td className={total} dir="ltr" data-testid={ids.benefitTotal} data-label={t("col.benefit")} data-key="">{formatAmount(decision.totals.benefitMinor)}</td>
            </tr>
          </tfoot>
        }
      />
      <p className="px-3 py-2 text-xs text-slate-500">{t("shareNote")}</p>
    </div>
  );
}

/**
 * The overall decision as a badge (what the reader decided from outcome, extensions or items), in
 * the portal's one status vocabulary: a decision that pays nothing reads "Not payable" / "No benefit".
 */
export async function OverallDecision({ decision, kind }: { decision: DecisionView; kind: SubmissionKind }) {
  const t = await getTranslations("adjudication");
  const words = await getTranslations("statusWords");
  // The same reading as every list and badge (lib/i18n outcomeOfView): badges follow the payer's decision.
  const label = statusLabel(kind, DECISION_STATUS[decision.decision], outcomeOfView(decision.response));
  return (
    <span className="inline-flex items-center gap-2" data-testid="overall-decision" data-word={label.word}>
      <span className="text-slate-500">{t("overall")}</span>{" "}
      <Badge tone={label.tone}>{words(label.key)}</Badge>
    </span>
  );
}

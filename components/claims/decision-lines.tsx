import { getLocale, getTranslations } from "next-intl/server";
import { formatAmount } from "@/components/coding/format";
import { currencySymbol } from "@/lib/money";
import { Badge } from "@/components/ui/card";
import type { DecisionLine, DecisionView } from "@/lib/authorizations";
import { CODE_SYSTEMS, findCode, type Decision } from "@/lib/fhir/browser";
import type { SubmissionKind } from "@/lib/db";
import { DECISION_STATUS, noteWords, reasonWords, statusLabel } from "@/lib/i18n";
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
  const money = "px-3 py-2 text-end tabular-nums";

  const service = (line: DecisionLine) => {
    const known = line.code && (!line.codeSystem || line.codeSystem === CODE_SYSTEMS.cpt) ? findCode("cpt", line.code)?.display[locale] : undefined;
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

  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid={ids.table}>
        <caption className="sr-only">{t("caption")}</caption>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 text-start">{t("col.line")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("col.service")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("col.decision")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("col.quantity")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("col.submitted")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("col.eligible")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("col.share")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("col.benefit")}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {decision.lines.map((line, index) => (
            <tr
              key={`${line.kind}-${line.sequence ?? index}-${index}`}
              className={`align-top ${line.kind === "addItem" ? "bg-sky-50/40" : ""}`}
              data-testid={line.kind === "addItem" ? "added-row" : "adjudication-row"}
            >
              <th scope="row" className="px-3 py-2 text-start font-normal text-slate-500">
                {line.kind === "addItem" ? "+" : (line.sequence ?? "—")}
              </th>
              <td className="min-w-40 px-3 py-2">{service(line)}</td>
              <td className="min-w-44 px-3 py-2" data-testid="line-decision">
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
              </td>
              <td className={money} dir="ltr">
                {line.approvedQuantity ?? "—"} / {line.quantity ?? "—"}
              </td>
              <td className={money} dir="ltr">{formatAmount(line.submittedMinor)}</td>
              <td className={money} dir="ltr" data-testid="eligible">{formatAmount(line.eligibleMinor)}</td>
              <td className={money} dir="ltr" data-testid="share">{formatAmount(line.shareMinor)}</td>
              <td className={`${money} font-semibold`} dir="ltr" data-testid="benefit">{formatAmount(line.benefitMinor)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-slate-200 bg-slate-50 font-semibold">
          <tr>
            <th scope="row" colSpan={4} className="px-3 py-2 text-start">
              {t("total")} <span className="text-xs font-normal text-slate-500">({currencySymbol(locale)})</span>
            </th>
            <td className={money} dir="ltr">{formatAmount(decision.totals.submittedMinor)}</td>
            <td className={money} dir="ltr">{formatAmount(decision.totals.eligibleMinor)}</td>
            <td className={money} dir="ltr" data-testid={ids.shareTotal}>{formatAmount(decision.totals.shareMinor)}</td>
            <td className={money} dir="ltr" data-testid={ids.benefitTotal}>{formatAmount(decision.totals.benefitMinor)}</td>
          </tr>
        </tfoot>
      </table>
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
  const label = statusLabel(kind, DECISION_STATUS[decision.decision], {
    ...(decision.totals.benefitMinor !== undefined ? { benefitMinor: decision.totals.benefitMinor } : {}),
    reasonCodes: decision.lines.flatMap((l) => l.reasons.map((r) => r.code).filter((c): c is string => typeof c === "string")),
  });
  return (
    <span className="inline-flex items-center gap-2" data-testid="overall-decision" data-word={label.word}>
      <span className="text-slate-500">{t("overall")}</span>{" "}
      <Badge tone={label.tone}>{words(label.key)}</Badge>
    </span>
  );
}

import { getFormatter, getTranslations } from "next-intl/server";
import Link from "next/link";
import type { EvidenceRow } from "@/lib/evidence";

/**
 * Information sent to the payer unasked about this claim or authorization (docs/decisions/115),
 * newest first, each with its state (sent, acknowledged by the payer), and the way to send more.
 */
export async function EvidenceList({ rows, sendHref }: { rows: EvidenceRow[]; sendHref?: string }) {
  const [t, format] = [await getTranslations("evidence"), await getFormatter()];
  return (
    <section data-testid="evidence-section">
      <h2 className="mb-3 text-base font-semibold">{t("section")}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t("none")}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" data-testid="evidence-list">
          {rows.map((r) => (
            <li key={r.id} className="py-2" data-testid="evidence-row" data-status={r.status}>
              <p className="font-medium">{t(`state.${r.status}`)}</p>
              <p className="text-xs text-slate-600">
                <time dateTime={r.createdAt.toISOString()}>{format.dateTime(r.createdAt, { dateStyle: "medium", timeStyle: "short" })}</time>
                {" · "}
                {t("summary", { files: r.files, characters: r.characters })}
                {r.sequences.length > 0 && <> · {t("lineList", { lines: r.sequences.join(", ") })}</>}
              </p>
              {r.acknowledgedAt && (
                <p className="text-xs text-emerald-800">
                  {t("acknowledgedAt", { at: format.dateTime(r.acknowledgedAt, { dateStyle: "medium", timeStyle: "short" }) })}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {sendHref && (
        <Link href={sendHref} className="mt-3 inline-block text-sm font-medium text-brand-800 underline underline-offset-2" data-testid="send-evidence">
          {t("send")}
        </Link>
      )}
    </section>
  );
}

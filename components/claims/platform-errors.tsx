import { getLocale, getTranslations } from "next-intl/server";
import { errorWords } from "@/lib/i18n";
import { PlatformWordsText } from "./platform-words";

export type PlatformErrorEntry = { code?: string; status?: number; diagnostics?: string; resolution?: string; field?: string };

/** Our own reasons for stopping a claim before sending it (docs/decisions/124): the scrubber's eligibility rules. */
const STOPPED = ["CV-P-1", "CV-P-2"];

/** The claim never left: the eligibility check made just before sending stopped it (docs/decisions/124). */
export const stoppedBeforeSending = (errors: PlatformErrorEntry[] | null | undefined) => Boolean(errors?.some((e) => e.code !== undefined && STOPPED.includes(e.code)));

/**
 * The exchange's reasons in words a clerk can act on (lib/i18n/platform-words.ts `errorWords`):
 * our words with the code beside, or the exchange's own text marked as such; then the field.
 */
export async function PlatformErrors({ errors }: { errors: PlatformErrorEntry[] | null }) {
  const [t, locale] = [await getTranslations("claims.errors"), await getLocale()];
  if (!errors?.length) return null;
  return (
    <ul className="space-y-1 text-sm" data-testid="platform-errors">
      {errors.map((e, i) => (
        <li key={i} className="flex flex-wrap items-baseline gap-x-2">
          <PlatformWordsText value={errorWords(e, locale)} testId="platform-error" className="font-medium" />
          {e.field && (
            <span className="text-xs text-slate-600">
              {t("field")}: <bdi dir="ltr" className="font-mono">{e.field}</bdi>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

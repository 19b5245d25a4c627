import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { classifyReason, familyName, reasonLabel } from "@/lib/denials";

/** The claims list filtered by a denial reason (from the dashboard's top fixable reasons): what it shows, and the way out. */
export async function ReasonFilterNotice({ reason }: { reason: string }) {
  const [t, locale] = [await getTranslations("dashboard.denials"), await getLocale()];
  const label = reasonLabel(reason, locale);
  const family = classifyReason(reason).family;
  return (
    <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="claims-reason-filter">
      <span>
        {t("filteredBy")}{" "}
        <strong dir="auto">{label.text}</strong>
        {label.known && <span className="text-slate-500"> ({reason})</span>}
        {family && <span className="text-slate-500"> · {familyName(family, locale)}</span>}
      </span>
      <Link href="/claims" className="font-medium text-sky-700 underline-offset-2 hover:underline">
        {t("clearFilter")}
      </Link>
    </p>
  );
}

import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import Link from "next/link";
import { StatusBadge } from "@/components/authorizations/status-badge";
import type { AuthorizationVersion } from "@/lib/submissions";
import { formatMoney } from "@/lib/money";

/**
 * The versions of an authorization (docs/decisions/114), current first: each change with its
 * status and decision, the page's own version marked. Older versions are overridden by the current.
 */
export async function VersionChain({ versions, viewing }: { versions: AuthorizationVersion[]; viewing: string }) {
  const [t, format, locale] = [await getTranslations("authorizations.versions"), await getFormatter(), await getLocale()];
  const ordered = [...versions.filter((v) => v.current), ...versions.filter((v) => !v.current)];
  return (
    <section data-testid="version-chain">
      <h2 className="mb-3 text-base font-semibold">{t("title")}</h2>
      <ol className="space-y-2 text-sm">
        {ordered.map((v) => {
          const n = versions.length - versions.findIndex((x) => x.id === v.id);
          return (
            <li key={v.id} className={`rounded-md border p-2 ${v.current ? "border-emerald-300 bg-emerald-50" : "border-slate-200"}`} data-testid="version" data-current={v.current ? "true" : "false"} data-status={v.status}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {v.id === viewing ? (
                    t("number", { n })
                  ) : (
                    <Link href={`/authorizations/${v.id}`} className="text-brand-800 underline underline-offset-2">
                      {t("number", { n })}
                    </Link>
                  )}
                  {v.current && <span className="ms-2 text-xs font-semibold text-emerald-800">{t("current")}</span>}
                  {v.id === viewing && !v.current && <span className="ms-2 text-xs text-slate-600">{t("viewing")}</span>}
                </span>
                <StatusBadge status={v.status} />
              </div>
              <p className="mt-1 text-xs text-slate-600">
                <time dateTime={v.createdAt.toISOString()}>{format.dateTime(v.createdAt, { dateStyle: "medium", timeStyle: "short" })}</time>
                {v.totalMinor !== null && <> · <bdi>{formatMoney(v.totalMinor, locale, v.currency ?? undefined)}</bdi></>}
                {v.preAuthRef && (
                  <>
                    {" · "}
                    <bdi dir="ltr" className="font-mono">
                      {v.preAuthRef}
                    </bdi>
                  </>
                )}
              </p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

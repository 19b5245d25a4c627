import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Badge } from "@/components/ui/card";
import { getDb } from "@/lib/db";
import { describeFacilities } from "@/lib/platform";
import { TestConnection } from "./test-connection";

/**
 * Settings → Platform connection → Facilities (decision 049): each facility's licence, client
 * certificate expiry and its own Test connection, which goes out with that facility's certificate.
 * The main facility is the environment's connection; others are added with `npm run admin --
 * facility:add`.
 */
export async function FacilitiesTable() {
  const [t, format, locale] = [await getTranslations("platform"), await getFormatter(), await getLocale()];
  const facilities = await describeFacilities(await getDb());
  if (facilities.length === 0) return null;
  const date = (d: Date) => format.dateTime(d, { dateStyle: "medium" });
  const nameOf = (f: (typeof facilities)[number]) => (f.name ? (locale === "ar" ? f.name.ar : f.name.en) : t("facilities.main"));

  return (
    <section aria-labelledby="facilities-title" className="mt-6 border-t border-slate-200 pt-4">
      <h3 id="facilities-title" className="text-sm font-semibold">
        {t("facilities.title")}
      </h3>
      <p className="mt-1 text-sm text-slate-600">{t("facilities.help")}</p>
      <div className="mt-3 overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t("facilities.title")}</caption>
          <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2 text-start">{t("facilities.name")}</th>
              <th scope="col" className="px-3 py-2 text-start">{t("facilities.license")}</th>
              <th scope="col" className="px-3 py-2 text-start">{t("facilities.certificate")}</th>
              <th scope="col" className="px-3 py-2 text-start">{t("facilities.status")}</th>
              <th scope="col" className="px-3 py-2 text-start">{t("facilities.test")}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {facilities.map((f) => (
              <tr key={f.code} className="align-top" data-facility={f.code}>
                <td className="px-3 py-2">
                  <span className="font-medium">{nameOf(f)}</span>
                  <span className="block text-xs text-slate-500">
                    <bdi dir="ltr">{f.code}</bdi>
                    {f.id && !f.ownOAuthClient ? ` · ${t("facilities.sharedClient")}` : ""}
                  </span>
                </td>
                <td className="px-3 py-2">
                  {f.providerLicense ? <bdi dir="ltr" className="whitespace-nowrap font-mono text-xs">{f.providerLicense}</bdi> : <span className="text-slate-500">{t("facilities.defaultLicense")}</span>}
                </td>
                <td className="px-3 py-2">
                  {"error" in f.certificate ? (
                    <span className="text-red-800">{t("certificateUnreadable")}</span>
                  ) : (
                    <>
                      <span className="tabular-nums">{t("facilities.until", { date: date(f.certificate.notAfter) })}</span>{" "}
                      <Badge tone={f.certificate.expired ? "red" : f.certificate.expiresSoon ? "amber" : "green"}>
                        {f.certificate.expired ? t("facilities.expired") : t("daysLeftValue", { days: Math.max(0, f.certificate.daysLeft) })}
                      </Badge>
                    </>
                  )}
                </td>
                <td className="px-3 py-2">{f.active ? <Badge tone="green">{t("facilities.active")}</Badge> : <Badge tone="slate">{t("facilities.inactive")}</Badge>}</td>
                <td className="px-3 py-2">{f.active && <TestConnection {...(f.id ? { facilityId: f.id } : {})} facilityName={nameOf(f)} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Badge } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
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

  const cell = "px-3 py-2";
  const columns: Column<(typeof facilities)[number]>[] = [
    {
      id: "name",
      header: t("facilities.name"),
      className: cell,
      cell: (f) => (
        <>
          <span className="font-medium">{nameOf(f)}</span>
          <span className="block text-xs text-slate-500">
            <bdi dir="ltr">{f.code}</bdi>
            {f.id && !f.ownOAuthClient ? ` · ${t("facilities.sharedClient")}` : ""}
          </span>
        </>
      ),
    },
    {
      id: "license",
      header: t("facilities.license"),
      className: cell,
      cell: (f) => (f.providerLicense ? <bdi dir="ltr" className="whitespace-nowrap font-mono text-xs">{f.providerLicense}</bdi> : <span className="text-slate-500">{t("facilities.defaultLicense")}</span>),
    },
    {
      id: "certificate",
      header: t("facilities.certificate"),
      className: cell,
      cell: (f) =>
        "error" in f.certificate ? (
          <span className="text-red-800">{t("certificateUnreadable")}</span>
        ) : (
          <>
            <span className="tabular-nums">{t("facilities.until", { date: date(f.certificate.notAfter) })}</span>{" "}
            <Badge tone={f.certificate.expired ? "red" : f.certificate.expiresSoon ? "amber" : "green"}>
              {f.certificate.expired ? t("facilities.expired") : t("daysLeftValue", { days: Math.max(0, f.certificate.daysLeft) })}
            </Badge>
          </>
        ),
    },
    { id: "status", header: t("facilities.status"), className: cell, cell: (f) => (f.active ? <Badge tone="green">{t("facilities.active")}</Badge> : <Badge tone="slate">{t("facilities.inactive")}</Badge>) },
    { id: "test", header: t("facilities.test"), className: cell, cell: (f) => f.active && <TestConnection {...(f.id ? { facilityId: f.id } : {})} facilityName={nameOf(f)} /> },
  ];

  return (
    <section aria-labelledby="facilities-title" className="mt-6 border-t border-slate-200 pt-4">
      <h3 id="facilities-title" className="text-sm font-semibold">
        {t("facilities.title")}
      </h3>
      <p className="mt-1 text-sm text-slate-600">{t("facilities.help")}</p>
      <DataTable
        label={t("facilities.title")}
        className="mt-3"
        columns={columns}
        rows={facilities}
        rowKey={(f) => f.code}
        rowProps={(f) => ({ className: "align-top", "data-facility": f.code })}
        maxHeight=""
        dense
      />
    </section>
  );
}

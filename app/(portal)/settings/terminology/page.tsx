import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { CatalogueTry, TerminologyImportForm } from "@/components/terminology/import-form";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { DEMO_VERSION, catalogueOverview } from "@/lib/terminology";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("terminology"))("title") };
}

/** Administrators: the code catalogue — each system's codes and versions, imports, a try-out picker (docs/decisions/086). */
export default async function TerminologyPage() {
  await requireArea("settings");
  const [t, ts, format, locale] = [await getTranslations("terminology"), await getTranslations("nav"), await getFormatter(), ((await getLocale()) === "ar" ? "ar" : "en") as "ar" | "en"];
  const overview = await catalogueOverview(await getDb());
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/settings" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {ts("settings")}
        </Link>
      </nav>
      <PageHeader title={t("title")} description={t("description")} />
      <Card className="mb-6">
        <h2 className="border-b border-slate-200 px-4 py-3 font-semibold">{t("systemsTitle")}</h2>
        <DataTable
          label={t("systemsTitle")}
          rows={overview}
          rowKey={(o) => o.system.key}
          columns={[
            {
              id: "system",
              header: t("columns.system"),
              cell: (o) => (
                <>
                  <span className="block font-medium">{o.system[locale]}</span>
                  <span className="block break-all font-mono text-xs text-slate-500" dir="ltr">
                    {o.system.url}
                  </span>
                </>
              ),
            },
            { id: "codes", header: t("columns.codes"), className: "px-4 py-2 tabular-nums", cell: (o) => format.number(o.codes) },
            {
              id: "version",
              header: t("columns.version"),
              cell: (o) => {
                const last = o.imports[0];
                if (!last) return t("noImport");
                return last.version === DEMO_VERSION && last.format === "demo" ? <Badge tone="slate">{t("demo")}</Badge> : <bdi dir="ltr" className="font-mono text-xs">{last.version}</bdi>;
              },
            },
            {
              id: "imported",
              header: t("columns.imported"),
              className: "px-4 py-2 tabular-nums",
              cell: (o) => (o.imports[0] ? format.dateTime(o.imports[0].createdAt, { dateStyle: "medium", timeStyle: "short" }) : "—"),
            },
            {
              id: "counts",
              header: t("columns.counts"),
              className: "px-4 py-2 tabular-nums",
              cell: (o) => {
                const last = o.imports[0];
                return last && last.format !== "demo" ? <bdi dir="ltr">{`${last.imported} · ${last.updated} · ${last.unchanged} · ${last.refused}`}</bdi> : "—";
              },
            },
          ]}
        />
      </Card>
      <Card className="mb-6 p-4">
        <h2 className="font-semibold">{t("importTitle")}</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          {t("importHelp")}{" "}
          <code dir="ltr" className="rounded bg-slate-100 px-1 text-xs">
            npm run admin -- terminology:import --system … --from codes.csv
          </code>
        </p>
        <TerminologyImportForm />
      </Card>
      <Card className="mb-6 p-4">
        <h2 className="font-semibold">{t("tryTitle")}</h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">{t("tryHelp")}</p>
        <CatalogueTry />
      </Card>
    </>
  );
}

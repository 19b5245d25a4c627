import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { ContractImport } from "@/components/insurers/contract-import";
import { InsurerForm } from "@/components/insurers/insurer-form";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { contractCounts } from "@/lib/contracts";
import { DEFAULT_WINDOWS, listInsurerSettings } from "@/lib/deadlines";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("insurers"))("title") };
}

/** Administrators: the insurers and their filing windows (the claim deadlines follow them). */
export default staffPage("settings", async function InsurersPage(_props: object, staff: StaffPageContext) {
  const [t, ts, tc, locale, db] = [await getTranslations("insurers"), await getTranslations("nav"), await getTranslations("contracts"), await getLocale(), staff.db];
  const rows = await listInsurerSettings(db);
  const prices = await contractCounts(db);
  await staff.audit({ action: "insurers.view", outcome: "success", details: { rows: rows.length } });
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/settings" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {ts("settings")}
        </Link>
      </nav>
      <PageHeader title={t("title")} description={t("description")} />
      <ul className="space-y-4" data-testid="insurers">
        {rows.map((r) => (
          <li key={r.id}>
            <Card className="p-4">
              <h2 className="mb-3 flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900">
                <bdi>{locale === "ar" ? r.nameAr : r.nameEn}</bdi>
                <span className="font-mono text-xs font-normal text-slate-500" dir="ltr">{r.id}</span>
                {!r.configured && <Badge tone="slate">{t("defaults")}</Badge>}
                <Badge tone={prices.get(r.id) ? "blue" : "slate"}>{prices.get(r.id) ? tc("prices", { count: prices.get(r.id)! }) : tc("none")}</Badge>
              </h2>
              <InsurerForm
                isNew={false}
                initial={{ id: r.id, nameEn: r.nameEn, nameAr: r.nameAr, license: r.license ?? "", active: r.active, submissionDays: r.windows.submissionDays, resubmissionDays: r.windows.resubmissionDays }}
              />
            </Card>
          </li>
        ))}
      </ul>
      <Card className="mt-6 p-4">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{tc("title")}</h2>
        <ContractImport />
      </Card>
      <Card className="mt-6 p-4">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t("add")}</h2>
        <InsurerForm isNew initial={{ id: "", nameEn: "", nameAr: "", license: "", active: true, submissionDays: DEFAULT_WINDOWS.submissionDays, resubmissionDays: DEFAULT_WINDOWS.resubmissionDays }} />
      </Card>
    </>
  );
});

import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Card, PageHeader } from "@/components/ui/card";
import { UploadForm } from "@/components/visits/upload-form";
import { PickForm } from "@/components/visits/pick-form";
import { canAccess, requireArea } from "@/lib/auth";
import { addDays, clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("visits.upload"))("title") };
}

export default async function NewVisitListPage() {
  const user = await requireArea("visits");
  const t = await getTranslations("visits");
  const tomorrow = addDays(clinicToday(), 1);
  return (
    <>
      <nav className="no-print mb-3 text-sm">
        <Link href="/visits" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("list.back")}
        </Link>
      </nav>
      <PageHeader title={t("upload.title")} description={t("upload.description")} />
      <Card className="max-w-3xl p-6">
        <UploadForm defaultName={tomorrow} />
      </Card>
      {/* Picking needs the patient search, which is the front desk's (patients area). */}
      {canAccess(user.roles, "patients") && (
        <Card className="mt-6 max-w-3xl p-6">
          <h2 className="text-base font-semibold text-slate-900">{t("pick.title")}</h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">{t("pick.description")}</p>
          <PickForm defaultDate={tomorrow} />
        </Card>
      )}
    </>
  );
}

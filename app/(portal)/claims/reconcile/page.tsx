import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ReconcileForm } from "@/components/claims/reconcile-form";
import { PageHeader } from "@/components/ui/card";
import { requireArea } from "@/lib/auth";
import { addDays, clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("claims"))("reconcile.title") };
}

/** Endpoint 5: the platform's claims of a patient since a date, against the portal's records. */
export default async function ReconcilePage() {
  await requireArea("claims");
  const t = await getTranslations("claims");
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/claims" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("detail.back")}
        </Link>
      </nav>
      <PageHeader title={t("reconcile.title")} description={t("reconcile.description")} />
      <ReconcileForm defaultSince={addDays(clinicToday(), -30)} />
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { InsurerForm } from "@/components/insurers/insurer-form";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { audit } from "@/lib/audit";
import { actorOf, requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { DEFAULT_WINDOWS, listInsurerSettings } from "@/lib/deadlines";
import { requestContext } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("insurers"))("title") };
}

/** Administrators: the insurers and their filing windows (the claim deadlines follow them). */
export default async function InsurersPage() {
  const user = await requireArea("settings");
  const [t, ts, locale, db, ctx] = [await getTranslations("insurers"), await getTranslations("nav"), await getLocale(), await getDb(), await requestContext()];
  const rows = await listInsurerSettings(db);
  await audit(db, { actor: actorOf(user), action: "insurers.view", outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { rows: rows.length } });
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
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t("add")}</h2>
        <InsurerForm isNew initial={{ id: "", nameEn: "", nameAr: "", license: "", active: true, submissionDays: DEFAULT_WINDOWS.submissionDays, resubmissionDays: DEFAULT_WINDOWS.resubmissionDays }} />
      </Card>
    </>
  );
}

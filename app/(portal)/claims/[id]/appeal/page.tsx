import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { AppealForm } from "@/components/appeals/appeal-form";
import { Card, PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { reasonLabel } from "@/lib/denials";
import { formatMoney } from "@/lib/money";
import { APPEALABLE_STATUSES, appealableLines, getSubmissionView } from "@/lib/submissions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("claims"))("appeal.title") };
}

/** Appeal a denied or partly paid claim (docs/decisions/081): its denied or cut lines, justification, documents. */
export default staffPage("claims", async function AppealPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  const [t, locale, db] = [await getTranslations("claims"), await getLocale(), staff.db];
  const view = await getSubmissionView(db, id, "claim");
  await staff.audit({ action: "claim.appeal_form", target: { type: "submission", id: view?.submission.id ?? "unknown" }, outcome: view ? "success" : "failure" });
  if (!view) notFound();
  const s = view.submission;
  const lines = await appealableLines(db, s.id);
  const appealable = (APPEALABLE_STATUSES as readonly string[]).includes(s.status) && lines.length > 0;
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href={`/claims/${s.id}`} className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("appeal.cancel")}
        </Link>
      </nav>
      <PageHeader title={t("appeal.title")} description={view.patient ? `${view.patient.givenName} ${view.patient.familyName}` : undefined} />
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("appeal.description")}</p>
      {appealable ? (
        <AppealForm
          claimId={s.id}
          lines={lines.map((l) => ({
            sequence: l.sequence,
            label: t("appeal.line", { sequence: l.sequence, code: l.serviceCode || "—", reason: l.reasonCode ? reasonLabel(l.reasonCode, locale).text : "—", amount: formatMoney(l.atStakeMinor, locale, l.currency || undefined) }),
          }))}
        />
      ) : (
        <Card className="p-6 text-sm text-slate-600">{t("appeal.errors.not_appealable")}</Card>
      )}
    </>
  );
});

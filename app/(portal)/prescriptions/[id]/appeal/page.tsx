import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { AppealForm } from "@/components/appeals/appeal-form";
import { Card, PageHeader } from "@/components/ui/card";
import { currentUser, staffPage, type StaffPageContext } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { appealablePrescriptionLines, getPrescription } from "@/lib/prescriptions";
import { submissionLabel, submissionNumber } from "@/lib/submissions";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  // The tab names the prescription by its short number only (decision 122).
  const number = (await currentUser()) ? await submissionNumber(await getDb(), (await params).id) : undefined;
  const title = (await getTranslations("prescriptions"))("appeal.title");
  return { title: number ? `${title} ${number}` : title };
}

/**
 * Appeal a partly approved or refused prescription (guide 7.11, Table 40; docs/decisions/121): its
 * cut or refused lines, the justification and documents — the claims' appeal form and intake.
 */
export default staffPage("prescriptions", async function PrescriptionAppealPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  const [t, locale] = [await getTranslations("prescriptions"), await getLocale()];
  const view = await getPrescription(staff.db, id);
  await staff.audit({ action: "prescription.appeal_form", target: { type: "submission", id: view?.id ?? "unknown" }, outcome: view ? "success" : "failure" });
  if (!view) notFound();
  const label = await submissionLabel(staff.db, view.id, locale);
  const lines = appealablePrescriptionLines(view);
  const decision = (d: string | undefined) => (d && ["approved", "partly-approved", "denied", "pending", "error"].includes(d) ? t(`decisions.${d}` as never) : "—");
  return (
    <>
      <nav className="mb-3 text-sm" aria-label={t("detail.breadcrumb")}>
        <Link href={`/prescriptions/${view.id}`} className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("appeal.back")}
          {label && (
            <>
              {" "}
              <bdi dir="ltr">{label.number}</bdi>
            </>
          )}
        </Link>
      </nav>
      <PageHeader title={t("appeal.title")} description={label?.text} />
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("appeal.description")}</p>
      {lines.length > 0 ? (
        <AppealForm
          of="prescription"
          claimId={view.id}
          lines={lines.map((l) => ({
            sequence: l.sequence,
            label: t("appeal.line", {
              sequence: l.sequence,
              medicine: (locale === "ar" ? (l.displayAr ?? l.display) : l.display) ?? l.code,
              decision: decision(l.decision),
              approved: l.approvedRefills ?? 0,
              asked: l.refillsRequested,
            }),
          }))}
        />
      ) : (
        <Card className="p-6 text-sm text-slate-600">{t("errors.notAppealable")}</Card>
      )}
    </>
  );
});

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { EligibilityDetails, OutcomeBanner } from "@/components/eligibility/eligibility-result";
import { PrintButton } from "@/components/print/print-button";
import { PrintSheet } from "@/components/print/print-sheet";
import { VisitEstimatePanel } from "@/components/eligibility/visit-estimate";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { env } from "@/lib/env";
import { getCheckView } from "@/lib/eligibility";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("eligibility"))("result.reopenTitle") };
}

export default staffPage("eligibility", async function EligibilityCheckPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  const db = staff.db;
  const check = await getCheckView(db, id);
  await staff.audit({ action: "eligibility.view", target: { type: "eligibility_check", id: check?.id ?? "unknown" }, outcome: check ? "success" : "failure", details: check ? { patientId: check.patient.id } : { reason: "not_found" } });
  if (!check) notFound();
  const t = await getTranslations();

  return (
    <>
      <PrintSheet title={t("eligibility.result.reopenTitle")} subject={`${check.patient.givenName} ${check.patient.familyName}`} />
      <nav className="no-print mb-3 text-sm">
        <Link href={`/patients/${check.patient.id}`} className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="rtl:hidden">← </span>
          <span aria-hidden className="ltr:hidden">→ </span>
          {t("eligibility.result.openPatient")}
        </Link>
      </nav>
      <PageHeader
        title={t("eligibility.result.reopenTitle")}
        description={`${check.patient.givenName} ${check.patient.familyName}`}
        actions={
          <div className="no-print flex flex-wrap gap-2">
            <PrintButton label={t("eligibility.result.print")} />
            <Link href={`/eligibility?patient=${check.patient.id}${check.coverage ? `&coverage=${check.coverage.id}` : ""}`} className={buttonClasses("primary")}>
              {t("eligibility.result.newCheck")}
            </Link>
          </div>
        }
      />
      <div className="max-w-4xl space-y-5">
        <div role="status" aria-live="polite">
          <OutcomeBanner check={check} />
        </div>
        <EligibilityDetails check={check} />
        {check.outcome === "in_force" && <VisitEstimatePanel checkId={check.id} servicedDate={check.servicedDate} protocol={env().PLATFORM_PROTOCOL} />}
        <p className="hidden text-xs text-slate-500 print:block">{t("eligibility.result.printedFrom", { app: t("app.name") })}</p>
      </div>
    </>
  );
});

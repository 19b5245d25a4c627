import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { RegisterPatientForm } from "@/components/patients/register-patient-form";
import { Card, PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { env } from "@/lib/env";
import { auditedView, formatSaudiMobile, patientCodeLists } from "@/lib/patients";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("patients"))("edit.title") };
}

/** Front desk corrects a registered patient (the same form and rules as registering). */
export default staffPage("patients", async function EditPatientPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  const patient = await auditedView(staff.db, staff.audit, id);
  if (!patient) notFound();
  const t = await getTranslations("patients");
  return (
    <>
      <nav className="no-print mb-3 text-sm">
        <Link href={`/patients/${patient.id}`} className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="rtl:hidden">← </span>
          <span aria-hidden className="ltr:hidden">→ </span>
          {t("edit.back")}
        </Link>
      </nav>
      <PageHeader title={t("edit.title")} description={t("edit.description")} />
      <Card className="max-w-3xl p-6">
        <RegisterPatientForm
          allowSandboxTestIds={env().PLATFORM_ENV === "sandbox"}
          patient={{
            id: patient.id,
            nationalId: patient.nationalId,
            givenName: patient.givenName,
            familyName: patient.familyName,
            birthDate: patient.birthDate,
            gender: patient.gender,
            phone: patient.phone ? formatSaudiMobile(patient.phone) : "",
            maritalStatus: patient.maritalStatus ?? "",
            occupation: patient.occupation ?? "",
            religion: patient.religion ?? "",
          }}
          lists={await patientCodeLists(staff.db)}
        />
      </Card>
    </>
  );
});

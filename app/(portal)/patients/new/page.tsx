import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { RegisterPatientForm } from "@/components/patients/register-patient-form";
import { Card, PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { env } from "@/lib/env";
import { patientCodeLists } from "@/lib/patients";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("patients"))("new.title") };
}

export default staffPage("patients", async function NewPatientPage(_props: unknown, staff: StaffPageContext) {
  const t = await getTranslations("patients");
  return (
    <>
      <nav className="no-print mb-3 text-sm">
        <Link href="/patients" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="rtl:hidden">← </span>
          <span aria-hidden className="ltr:hidden">→ </span>
          {t("new.back")}
        </Link>
      </nav>
      <PageHeader title={t("new.title")} description={t("new.description")} />
      <Card className="max-w-3xl p-6">
        {/* The sandbox's reserved test identities are valid only when the platform is the sandbox. */}
        <RegisterPatientForm allowSandboxTestIds={env().PLATFORM_ENV === "sandbox"} lists={await patientCodeLists(staff.db)} />
      </Card>
    </>
  );
});

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { EligibilityForm } from "@/components/eligibility/eligibility-form";
import { PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { listCoverages, listInsurers, mothersCoverages, auditedView } from "@/lib/patients";
import { clinicToday } from "@/lib/time";
import type { PatientSummary } from "@/lib/patients";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("eligibility") };
}

export default staffPage("eligibility", async function EligibilityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const t = await getTranslations("eligibility");
  const params = await searchParams;
  const patientParam = typeof params.patient === "string" ? params.patient : undefined;
  const coverageParam = typeof params.coverage === "string" ? params.coverage : undefined;

  // Opened from a patient's record: the patient (and coverage) come preselected.
  let initialPatient: PatientSummary | undefined;
  if (patientParam) {
    const db = staff.db;
    const patient = await auditedView(db, staff.audit, patientParam);
    if (patient) {
      const { id, nationalId, givenName, familyName, birthDate, gender } = patient;
      // A newborn is offered its mother's coverages too (docs/decisions/110).
      initialPatient = { id, nationalId, givenName, familyName, birthDate, gender, coverages: [...(await listCoverages(db, patient.id)), ...(await mothersCoverages(db, patient))], ...(patient.motherId ? { newborn: { birthWeightGrams: patient.birthWeightGrams } } : {}) };
    }
  }

  // A discovery's insurers (a patient without a coverage on file): the active ones.
  const insurers = (await listInsurers(staff.db)).filter((i) => i.active).map((i) => ({ id: i.id, nameEn: i.nameEn, nameAr: i.nameAr }));

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <EligibilityForm
        key={initialPatient?.id ?? "none"}
        today={clinicToday()}
        initialPatient={initialPatient}
        initialCoverageId={coverageParam}
        insurers={insurers}
      />
    </>
  );
});

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PrescriptionForm } from "@/components/prescriptions/prescription-form";
import { PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { listPractitioners, userFacilityId } from "@/lib/facilities";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prescriptions"))("form.title") };
}

/** A new prescription for verification (docs/decisions/116): the prescribers of the user's facility. */
export default staffPage("prescriptions", async function NewPrescriptionPage(_props: unknown, staff: StaffPageContext) {
  const t = await getTranslations("prescriptions");
  const practitioners = (await listPractitioners(staff.db, await userFacilityId(staff.db, staff.user.id))).filter((p) => p.active);
  return (
    <>
      <PageHeader title={t("form.title")} description={t("form.description")} />
      <PrescriptionForm prescribers={practitioners.map((p) => ({ id: p.id, name: `${p.givenName} ${p.familyName}`, license: p.license }))} />
    </>
  );
});

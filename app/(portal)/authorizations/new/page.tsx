import type { Metadata } from "next";
import { env } from "@/lib/env";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { SubmissionForm } from "@/components/authorizations/submission-form";
import { PageHeader } from "@/components/ui/card";
import { loadDraftForForm, submissionFormOptions } from "@/lib/submissions";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("authorizations"))("newTitle") };
}

export default staffPage("authorizations", async function NewAuthorizationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const { draft } = await searchParams;
  const t = await getTranslations("authorizations");
  const today = clinicToday();
  let initial;
  if (typeof draft === "string") {
    const db = staff.db;
    const loaded = await loadDraftForForm(db, draft, "preauthorization");
    await staff.audit({ action: "authorization.draft_open", target: { type: "submission", id: typeof loaded === "string" ? "unknown" : loaded.id }, outcome: typeof loaded === "string" ? "failure" : "success", ...(typeof loaded === "string" ? { details: { reason: loaded } } : { details: { patientId: loaded.patient?.id } }) });
    if (loaded === "not_draft") redirect(`/authorizations/${draft}`);
    if (loaded !== "not_found") {
      initial = {
        draftId: loaded.id,
        values: loaded.values,
        patient: loaded.patient,
        attachments: loaded.attachments.map((a) => ({ id: a.id, fileName: a.fileName, contentType: a.contentType, size: a.size })),
      };
    }
  }
  const options = await submissionFormOptions(staff.db, staff.user.id, env().PLATFORM_PROTOCOL);
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/authorizations" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("backToList")}
        </Link>
      </nav>
      <PageHeader title={t("newTitle")} description={t("newDescription")} />
      <SubmissionForm use="preauthorization" today={today} initial={initial} practitioners={options.practitioners} codeLists={options.codeLists} protocol={env().PLATFORM_PROTOCOL} />
    </>
  );
});

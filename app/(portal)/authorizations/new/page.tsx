import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { SubmissionForm } from "@/components/authorizations/submission-form";
import { PageHeader } from "@/components/ui/card";
import { audit } from "@/lib/audit";
import { loadDraftForForm } from "@/lib/authorizations";
import { actorOf, requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http";
import { clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("authorizations"))("newTitle") };
}

export default async function NewAuthorizationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireArea("authorizations");
  const { draft } = await searchParams;
  const t = await getTranslations("authorizations");
  const today = clinicToday();
  let initial;
  if (typeof draft === "string") {
    const db = await getDb();
    const ctx = await requestContext();
    const loaded = await loadDraftForForm(db, draft, "preauthorization");
    await audit(db, {
      actor: actorOf(user),
      action: "authorization.draft_open",
      target: { type: "submission", id: typeof loaded === "string" ? "unknown" : loaded.id },
      outcome: typeof loaded === "string" ? "failure" : "success",
      requestId: ctx.requestId,
      ip: ctx.ip,
      ...(typeof loaded === "string" ? { details: { reason: loaded } } : { details: { patientId: loaded.patient?.id } }),
    });
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
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/authorizations" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("backToList")}
        </Link>
      </nav>
      <PageHeader title={t("newTitle")} description={t("newDescription")} />
      <SubmissionForm use="preauthorization" today={today} initial={initial} />
    </>
  );
}

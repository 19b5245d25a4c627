import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { SystemStatusView } from "@/components/operations/system-status-view";
import { PageHeader } from "@/components/ui/card";
import { requireArea } from "@/lib/auth";
import { getDatabase } from "@/lib/db";
import { systemStatus } from "@/lib/operations";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("systemStatus"))("title") };
}

export default async function SystemStatusPage() {
  await requireArea("settings");
  const t = await getTranslations("systemStatus");
  const initial = await systemStatus(await getDatabase());
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <SystemStatusView initial={JSON.parse(JSON.stringify(initial))} />
    </>
  );
}

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PlannedPage } from "@/components/shell/planned-page";
import { requireArea } from "@/lib/auth/guards";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("dashboard") };
}

export default async function DashboardPage() {
  await requireArea("dashboard");
  return <PlannedPage area="dashboard" />;
}

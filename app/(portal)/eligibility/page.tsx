import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PlannedPage } from "@/components/shell/planned-page";
import { requireArea } from "@/lib/auth/guards";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("eligibility") };
}

export default async function EligibilityPage() {
  await requireArea("eligibility");
  return <PlannedPage area="eligibility" />;
}

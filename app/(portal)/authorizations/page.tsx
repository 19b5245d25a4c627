import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PlannedPage } from "@/components/shell/planned-page";
import { requireArea } from "@/lib/auth/guards";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("authorizations") };
}

export default async function AuthorizationsPage() {
  await requireArea("authorizations");
  return <PlannedPage area="authorizations" />;
}

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { EvidencePage } from "@/components/evidence/evidence-page";
import { staffPage, type StaffPageContext } from "@/lib/auth";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("evidence"))("title") };
}

/** Send the payer information about an authorization of the clinic's own accord (docs/decisions/115). */
export default staffPage("authorizations", async function AuthorizationEvidencePage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  return <EvidencePage id={(await params).id} of="authorization" staff={staff} />;
});

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { EvidencePage } from "@/components/evidence/evidence-page";
import { currentUser, staffPage, type StaffPageContext } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { submissionNumber } from "@/lib/submissions";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  // The tab names the prescription by its short number only (decision 122).
  const number = (await currentUser()) ? await submissionNumber(await getDb(), (await params).id) : undefined;
  const title = (await getTranslations("evidence"))("title");
  return { title: number ? `${title} ${number}` : title };
}

/** Send the payer information about a prescription of the prescriber's own accord (docs/decisions/115, 121). */
export default staffPage("prescriptions", async function PrescriptionEvidencePage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  return <EvidencePage id={(await params).id} of="prescription" staff={staff} />;
});

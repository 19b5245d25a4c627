import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { EvidenceForm } from "@/components/evidence/evidence-form";
import { evidenceLines, mayReceiveEvidence } from "@/components/evidence/lines";
import { Card, PageHeader } from "@/components/ui/card";
import type { StaffPageContext } from "@/lib/auth";
import { getSubmissionView, submissionLabel } from "@/lib/submissions";

const KINDS = {
  claim: { kind: "claim", base: "/claims", audit: "claim.evidence_form" },
  authorization: { kind: "preauthorization", base: "/authorizations", audit: "authorization.evidence_form" },
  prescription: { kind: "prescription", base: "/prescriptions", audit: "prescription.evidence_form" },
} as const;

/**
 * "Send information to the payer" about a claim, an authorization or a prescription of the clinic's
 * own accord (docs/decisions/115, 121): one page body for all, its opening audited.
 */
export async function EvidencePage({ id, of, staff }: { id: string; of: keyof typeof KINDS; staff: StaffPageContext }) {
  const { kind, base, audit } = KINDS[of];
  const t = await getTranslations("evidence");
  const view = await getSubmissionView(staff.db, id, kind);
  await staff.audit({ action: audit, target: { type: "submission", id: view?.submission.id ?? "unknown" }, outcome: view ? "success" : "failure" });
  if (!view) notFound();
  const s = view.submission;
  // Decision 122: the submission by its label (C-/A-/P-number · patient · service · day), as its own page names it.
  const label = await submissionLabel(staff.db, s.id, await getLocale());
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href={`${base}/${s.id}`} className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("back")}
          {label && (
            <>
              {" "}
              <bdi dir="ltr">{label.number}</bdi>
            </>
          )}
        </Link>
      </nav>
      <PageHeader title={t("title")} description={label?.text ?? (view.patient ? `${view.patient.givenName} ${view.patient.familyName}` : undefined)} />
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("description")}</p>
      {mayReceiveEvidence(s) ? (
        <EvidenceForm submissionId={s.id} back={`${base}/${s.id}`} lines={await evidenceLines(view)} />
      ) : (
        <Card className="p-6 text-sm text-slate-600">{t("errors.not_sendable")}</Card>
      )}
    </>
  );
}

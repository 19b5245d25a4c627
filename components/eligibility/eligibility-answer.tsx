"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { PrintButton } from "@/components/print/print-button";
import { buttonClasses } from "@/components/ui/button";
import type { EligibilityCheckView } from "@/lib/eligibility";
import { EligibilityDetails, OutcomeBanner, useAnnouncement } from "./eligibility-result";

/**
 * The eligibility form's answer: a chunk of its own, fetched when a check is sent (decision 108, amended
 * 2026-11-29) — the outcome, the benefits, the coverages the platform found and printing are not part
 * of the form's first load.
 */

/** The outcome, inside the form's live region: the one-line announcement and the banner. */
export function EligibilityAnswerHeadline({ check }: { check: EligibilityCheckView }) {
  const announcement = useAnnouncement(check);
  return (
    <>
      <p className="sr-only">{announcement}</p>
      <OutcomeBanner check={check} />
    </>
  );
}

/** The benefits and the rest of the answer, then the link to the check's own page and printing. */
export function EligibilityAnswerDetails({ check }: { check: EligibilityCheckView }) {
  const t = useTranslations("eligibility");
  return (
    <div className="mt-5 space-y-4">
      <EligibilityDetails check={check} />
      <div className="no-print flex flex-wrap gap-3">
        <Link href={`/eligibility/${check.id}`} className={buttonClasses("secondary")}>
          {t("result.openResult")}
        </Link>
        <PrintButton label={t("result.print")} />
      </div>
    </div>
  );
}

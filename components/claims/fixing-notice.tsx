import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { PlatformErrors } from "@/components/claims/platform-errors";
import type { Db } from "@/lib/db";
import { getSubmissionView, submissionNumber } from "@/lib/submissions";
import { lookupCodes } from "@/lib/terminology";

/**
 * Fix-and-resubmit (decision 123): at the top of the claim form, which claim this draft fixes —
 * patient, first service, date of service and the claim's number — and the payer's reason, so
 * billing knows what to change before reading the form. The number is the claim's short one
 * (C-1024, lib/submissions/labels.ts), the one its page, the lists and search know.
 */
export async function FixingNotice({ db, replacesId }: { db: Db; replacesId: string }) {
  const view = await getSubmissionView(db, replacesId, "claim");
  // A copy of a cancelled claim replaces it too: only a rejected one has a payer's reason to fix.
  if (!view || view.submission.status !== "rejected") return null;
  const [t, format, locale] = [await getTranslations("claims.fixing"), await getFormatter(), await getLocale()];
  const s = view.submission;
  const items = ((s.form as { items?: { system?: string; code?: string; servicedDate?: string }[] } | null)?.items ?? []).filter((i) => i.code);
  const first = items[0];
  const [hit] = first?.code ? await lookupCodes(db, first.system || "cpt", [first.code]) : [];
  const words = hit ? (locale === "ar" && hit.ar) || hit.en : "";
  const dates = [...new Set(items.map((i) => i.servicedDate).filter((d): d is string => !!d))].sort();
  const day = (value: string) => format.dateTime(new Date(`${value}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  const patient = view.patient ? `${view.patient.givenName} ${view.patient.familyName}` : s.patientNationalId;
  const number = await submissionNumber(db, s.id);
  return (
    <section role="region" aria-labelledby="fixing-title" className="mb-5 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-950" data-testid="fixing-notice">
      <h2 id="fixing-title" className="text-base font-semibold">
        {t("title")}
      </h2>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-4">
        <div className="min-w-0">
          <dt className="text-red-900/80">{t("patient")}</dt>
          <dd className="font-medium" data-testid="fixing-patient">{patient}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-red-900/80">{t("service")}</dt>
          <dd className="font-medium" data-testid="fixing-service">
            {first?.code ? (
              <>
                <bdi dir="ltr" className="font-mono">{first.code}</bdi> {words}
                {items.length > 1 && <span className="font-normal"> {t("more", { count: items.length - 1 })}</span>}
              </>
            ) : (
              "—"
            )}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-red-900/80">{t("date")}</dt>
          <dd className="font-medium" data-testid="fixing-date">{dates.length ? dates.map(day).join(" – ") : "—"}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-red-900/80">{t("number")}</dt>
          <dd className="font-mono font-medium" data-testid="fixing-number"><bdi dir="ltr">{number ?? "—"}</bdi></dd>
        </div>
      </dl>
      <div className="mt-3" data-testid="fixing-reason">
        <h3 className="font-medium">{t("reason")}</h3>
        {s.errors?.length ? <PlatformErrors errors={s.errors} /> : <p>{t("noReason")}</p>}
      </div>
      <p className="mt-2">
        <Link href={`/claims/${s.id}`} className="text-brand-800 underline">
          {t("open")}
        </Link>
      </p>
    </section>
  );
}

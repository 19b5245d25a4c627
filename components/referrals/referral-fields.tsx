"use client";

import { useTranslations } from "next-intl";
import type { UseFormRegister } from "react-hook-form";
import { TextField } from "@/components/ui/field";
import type { SubmissionFormInput, SubmissionUse } from "@/lib/submissions";

/**
 * The receiving facility's referral (guide 7.3 step 4–5, docs/decisions/120): the referring
 * provider (Claim.referral.display), the transfer authorization's number (sent as preAuthRef) and
 * its date (extension-authorization-offline-date, required on a claim). Its own chunk, loaded when
 * staff say the patient comes on a referral.
 */
export default function ReferralFields({ use, register, errors }: { use: SubmissionUse; register: UseFormRegister<SubmissionFormInput>; errors: { provider?: React.ReactNode[]; reference?: React.ReactNode[]; date?: React.ReactNode[] } }) {
  const t = useTranslations("authorizations.referral");
  return (
    <div className="mt-3 space-y-3 rounded-md border border-sky-200 bg-sky-50/50 p-3" data-testid="referral-fields">
      <p className="text-sm text-slate-700">{t("explain")}</p>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label={t("provider")} hint={t("providerHint")} autoComplete="off" errors={errors.provider as string[] | undefined} {...register("referral.provider")} />
        <TextField label={t("reference")} hint={t("referenceHint")} autoComplete="off" dir="ltr" errors={errors.reference as string[] | undefined} {...register("referral.reference")} />
        <TextField label={t("date")} type="date" {...(use === "claim" ? { hint: t("dateHint") } : {})} errors={errors.date as string[] | undefined} {...register("referral.date")} />
      </div>
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";
import type { UseFormRegister } from "react-hook-form";
import { TextField } from "@/components/ui/field";
import type { SubmissionFormInput } from "@/lib/submissions";

/**
 * An authorization the insurer gave while the exchange could not be reached (docs/decisions/111):
 * its reference (sent as insurance.preAuthRef) and the day it was given
 * (extension-authorization-offline-date). Its own chunk, loaded when billing opens it.
 */
export default function OfflineAuthorizationFields({ register, errors }: { register: UseFormRegister<SubmissionFormInput>; errors: { reference?: React.ReactNode[]; date?: React.ReactNode[] } }) {
  const t = useTranslations("authorizations.offline");
  return (
    <div className="mt-3 grid gap-4 sm:grid-cols-2" data-testid="offline-authorization">
      <TextField label={t("reference")} hint={t("referenceHint")} autoComplete="off" dir="ltr" errors={errors.reference as string[] | undefined} {...register("offlineAuthorization.reference")} />
      <TextField label={t("date")} type="date" errors={errors.date as string[] | undefined} {...register("offlineAuthorization.date")} />
    </div>
  );
}

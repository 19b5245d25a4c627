"use client";

import { useFormatter, useTranslations } from "next-intl";
import { NEWBORN_DAYS, daysOld } from "@/lib/patients/browser";
import type { PatientSummary } from "@/lib/patients";

/**
 * The newborn part of the authorization and claim forms (docs/decisions/110), its own chunk loaded
 * only for a baby linked to its mother: what the request will say (the newborn flag on the
 * mother's coverage, the birth weight in kilograms), or that the baby needs its own coverage.
 */
export default function NewbornNotice({ patient, coverageId, today }: { patient: PatientSummary; coverageId: string; today: string }) {
  const t = useTranslations("patients.newborn");
  const format = useFormatter();
  const chosen = patient.coverages.find((c) => c.id === coverageId);
  const age = daysOld(patient.birthDate, today);
  const grams = patient.newborn?.birthWeightGrams;
  if (age > NEWBORN_DAYS) {
    return (
      <p role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="newborn-notice">
        {t("needsOwn", { day: age, days: NEWBORN_DAYS })}
      </p>
    );
  }
  return (
    <p className="mt-4 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900" data-testid="newborn-notice">
      {chosen?.ofMother ? t("formUnderMother", { day: age, days: NEWBORN_DAYS }) : t("formChooseMother", { day: age, days: NEWBORN_DAYS })}
      {chosen?.ofMother && grams != null && <> {t("formWeight", { kg: format.number(grams / 1000, { maximumFractionDigits: 3 }) })}</>}
    </p>
  );
}

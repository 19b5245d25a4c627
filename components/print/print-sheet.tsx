import { getLocale, getTranslations } from "next-intl/server";
import { env } from "@/lib/env";
import { PrintFrame } from "./print-frame";

/**
 * The printed sheet's frame for a page (decision 123): the clinic's name (CLINIC_NAME), the
 * paper's title and subject, the date printed and page numbers — in the page's language.
 */
export async function PrintSheet({ title, subject }: { title: string; subject?: string }) {
  const [t, locale] = [await getTranslations("print"), await getLocale()];
  const e = env();
  return <PrintFrame clinicName={e.CLINIC_NAME} title={title} {...(subject ? { subject } : {})} printedTemplate={t.raw("printed") as string} pageTemplate={t.raw("pageOf") as string} locale={locale} timeZone={e.CLINIC_TIME_ZONE} />;
}

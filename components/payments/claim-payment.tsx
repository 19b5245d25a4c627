import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Badge } from "@/components/ui/card";
import { paymentLabel } from "@/lib/i18n";
import { formatMoney } from "@/lib/money";
import type { ClaimPayment } from "@/lib/payments";

/** "Paid on … in remittance …" (with the short payment, when there is one) for a claim's page. */
export async function ClaimPaymentLine({ payment }: { payment: ClaimPayment }) {
  const [t, words, format, locale] = [await getTranslations("payments.claim"), await getTranslations("statusWords"), await getFormatter(), await getLocale()];
  const label = paymentLabel("complete", payment)!;
  const date = format.dateTime(new Date(`${payment.paymentDate}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="claim-payment" data-short={payment.shortPaid || undefined}>
      <Badge tone={label.tone}>{words(label.key)}</Badge>
      <Link href={`/payments/${payment.remittanceId}`} className="text-brand-800 underline-offset-2 hover:underline">
        {t("paidOn", { date, remittance: payment.remittance })}
      </Link>
      {payment.shortPaid && (
        <span className="text-amber-900">
          {t("shortPaid", { paid: formatMoney(payment.paidMinor, locale), benefit: formatMoney(payment.benefitMinor, locale) })}
        </span>
      )}
    </p>
  );
}

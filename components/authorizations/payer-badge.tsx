import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/card";

/**
 * "Approved by the payer": a payer's advanced authorization (docs/decisions/101) — an approval the
 * clinic never asked for — beside its status wherever authorizations are listed or shown.
 */
export function PayerBadge() {
  const t = useTranslations("authorizations.payer");
  return (
    <span data-testid="payer-badge" className="ms-1 inline-block">
      <Badge tone="blue">{t("badge")}</Badge>
    </span>
  );
}

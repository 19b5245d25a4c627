import { getTranslations } from "next-intl/server";
import { Card, PageHeader } from "@/components/ui/card";
import type { Area } from "@/lib/auth/roles";

/**
 * The honest stand-in for an area whose feature is not built yet: it says so, and says what
 * will be here, instead of showing empty controls that do nothing.
 */
export async function PlannedPage({ area }: { area: Exclude<Area, "audit"> }) {
  const t = await getTranslations();
  return (
    <>
      <PageHeader title={t(`nav.${area}`)} description={t(`planned.${area}`)} />
      <Card className="p-6">
        <p role="status" className="text-sm text-slate-700" data-testid="planned-notice">
          {t("planned.notice")}
        </p>
      </Card>
    </>
  );
}

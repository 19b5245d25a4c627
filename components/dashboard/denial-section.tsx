import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { DENIAL_TABLES, type DashboardRange } from "@/lib/dashboard";
import { DashboardWidget, WidgetSkeleton } from "./widget";

const WIDE = new Set<string>(["denialFixable", "denialTrend"]);

/**
 * The dashboard's denial section (docs/decisions/077): money rejected and cut per family, the top
 * fixable reasons with links to their claims, reasons, insurers, services, practitioners and the
 * trend — each widget streams on its own, with its CSV. The reasons link to their claims only for
 * those who may open the claims list (billing).
 */
export async function DenialSection({ range, linkClaims }: { range: DashboardRange; linkClaims: boolean }) {
  const t = await getTranslations("dashboard.denials");
  return (
    <section aria-labelledby="denials-heading" className="mt-8" data-testid="dashboard-denials">
      <h2 id="denials-heading" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="mb-4 mt-1 text-sm text-slate-600">{t("description")}</p>
      <div className="grid gap-6 lg:grid-cols-2">
        {DENIAL_TABLES.map((name) => (
          <div key={name} className={WIDE.has(name) ? "lg:col-span-2" : undefined}>
            <Suspense fallback={<WidgetSkeleton name={name} />}>
              <DashboardWidget name={name} range={range} linkClaims={linkClaims} />
            </Suspense>
          </div>
        ))}
      </div>
    </section>
  );
}

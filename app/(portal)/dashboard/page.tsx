import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { KpiTiles, KpiTilesSkeleton } from "@/components/dashboard/kpi-tiles";
import { LiveRefresh } from "@/components/live/live-refresh";
import { RangeForm } from "@/components/dashboard/range-form";
import { AheadWidget } from "@/components/visits/ahead-widget";
import { PaymentsDashboardWidgets } from "@/components/payments/dashboard-widgets";
import { DashboardWidget, WidgetSkeleton } from "@/components/dashboard/widget";
import { DenialSection } from "@/components/dashboard/denial-section";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext, canAccess } from "@/lib/auth";
import { parseRange, rangeSearch, type TableName } from "@/lib/dashboard";
import { insurers as insurersTable } from "@/lib/db";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("dashboard") };
}

const WIDGETS: TableName[] = ["insurers", "categories", "authorizations", "reasons", "timing", "trend"];

export default staffPage("dashboard", async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const { user } = staff;
  const [t, locale, timeZone, db] = [await getTranslations("dashboard"), await getLocale(), await getTimeZone(), staff.db];
  // Read before the figures: a status change after this moment makes the browser render the page again.
  const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.dashboard] });
  const range = parseRange(await searchParams, timeZone);
  const insurers = (await db.select().from(insurersTable)).map((i) => ({ id: i.id, name: locale === "ar" ? i.nameAr : i.nameEn }));
  const viewKey = await staff.audit({ action: "dashboard.view", outcome: "success", details: { from: range.from, to: range.to, bucket: range.bucket, insurer: range.insurerId ?? null } });
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <Link href="/dashboard/live" className={buttonClasses("secondary")}>
            {t("liveLink")}
          </Link>
        }
      />
      <LiveRefresh query={{ kinds: [...PAGE_LIVE_KINDS.dashboard] }} stamp={stamp} viewKey={viewKey} throttleMs={1000} />
      <RangeForm range={range} insurers={insurers} />
      <Suspense key={`kpi-${rangeSearch(range)}`} fallback={<KpiTilesSkeleton />}>
        <KpiTiles range={range} />
      </Suspense>
      {/* The key makes every widget show its skeleton again when the range changes. */}
      <div key={rangeSearch(range)} className="grid gap-6 lg:grid-cols-2">
        {WIDGETS.map((name) => (
          <div key={name} className={name === "trend" || name === "insurers" ? "lg:col-span-2" : undefined}>
            <Suspense fallback={<WidgetSkeleton name={name} />}>
              <DashboardWidget name={name} range={range} />
            </Suspense>
          </div>
        ))}
        <AheadWidget />
      </div>
      <DenialSection key={`denials-${rangeSearch(range)}`} range={range} linkClaims={canAccess(user.roles, "claims")} />
      <PaymentsDashboardWidgets key={`payments-${rangeSearch(range)}`} range={range} />
    </>
  );
});

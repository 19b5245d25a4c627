import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { LiveBoard } from "@/components/dashboard/live-board";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { canAccess, requireArea } from "@/lib/auth";
import { liveBoardView } from "@/lib/dashboard";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.live"))("title") };
}

export default async function LiveBoardPage() {
  const user = await requireArea("dashboard");
  const [t, locale, db] = [await getTranslations("dashboard"), await getLocale(), await getDb()];
  const view = await liveBoardView(db, locale);
  return (
    <>
      <PageHeader
        title={t("live.title")}
        description={t("live.description")}
        actions={
          <Link href="/dashboard" className={buttonClasses("secondary")}>
            {t("backLink")}
          </Link>
        }
      />
      <LiveBoard initial={view} locale={locale} canOpen={{ preauthorization: canAccess(user.roles, "authorizations"), claim: canAccess(user.roles, "claims") }} />
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { PlatformCard } from "@/components/settings/platform-card";
import { Card, PageHeader } from "@/components/ui/card";
import { requireArea } from "@/lib/auth";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("settings") };
}

export default async function SettingsPage() {
  await requireArea("settings");
  const t = await getTranslations();
  return (
    <>
      <PageHeader title={t("nav.settings")} description={t("settings.description")} />
      <Link
        href="/settings/users"
        className="mb-6 block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        data-testid="settings-users-link"
      >
        <span className="block font-semibold text-brand-800">{t("users.title")}</span>
        <span className="mt-1 block text-sm text-slate-600">{t("users.linkHelp")}</span>
      </Link>
      <Link
        href="/settings/system-status"
        className="mb-6 block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span className="block font-semibold text-brand-800">{t("systemStatus.link")}</span>
        <span className="mt-1 block text-sm text-slate-600">{t("systemStatus.linkHelp")}</span>
      </Link>
      <Link
        href="/settings/insurers"
        className="mb-6 block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        data-testid="settings-insurers-link"
      >
        <span className="block font-semibold text-brand-800">{t("insurers.title")}</span>
        <span className="mt-1 block text-sm text-slate-600">{t("insurers.description")}</span>
      </Link>
      <Link
        href="/settings/terminology"
        className="mb-6 block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        data-testid="settings-terminology-link"
      >
        <span className="block font-semibold text-brand-800">{t("terminology.link")}</span>
        <span className="mt-1 block text-sm text-slate-600">{t("terminology.linkHelp")}</span>
      </Link>
      <Card className="mb-6 p-4">
        <h2 className="font-semibold">{t("settings.accessTitle")}</h2>
        <p className="mt-1 text-sm text-slate-600">{t("settings.accessHelp")}</p>
        <ul className="mt-4 grid gap-3 md:grid-cols-3">
          {(["organizationKeys", "apiAccess", "gatewayTokens"] as const).map((key) => (
            <li key={key}>
              <Link
                href={`/settings/${{ organizationKeys: "organization-keys", apiAccess: "api-access", gatewayTokens: "gateway-tokens" }[key]}`}
                className="block h-full rounded-md border border-slate-200 p-3 hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span className="block text-sm font-medium text-brand-800">{t(`settings.links.${key}`)}</span>
                <span className="mt-1 block text-xs text-slate-600">{t(`settings.links.${key}Help`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Card>
      <PlatformCard />
    </>
  );
}

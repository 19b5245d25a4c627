import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { PlatformCard } from "@/components/settings/platform-card";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { requireArea, listUsers } from "@/lib/auth";
import { getDb } from "@/lib/db";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("settings") };
}

export default async function SettingsPage() {
  await requireArea("settings");
  const [t, format] = [await getTranslations(), await getFormatter()];
  const users = await listUsers(await getDb());
  const now = new Date();
  return (
    <>
      <PageHeader title={t("nav.settings")} description={t("settings.description")} />
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
      <Card className="mb-6">
        <div className="border-b border-slate-200 px-4 py-3">
          <h2 className="font-semibold">{t("settings.usersTitle")}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {t("settings.usersHelp")} <code dir="ltr" className="rounded bg-slate-100 px-1 text-xs">npm run admin -- user:create --email … --role …</code>
          </p>
        </div>
        <DataTable
          label={t("settings.usersTitle")}
          rows={users}
          rowKey={(u) => u.id}
          columns={[
            {
              id: "user",
              header: t("settings.columns.user"),
              cell: (u) => (
                <>
                  <span className="block font-medium">{u.name}</span>
                  <span className="block text-xs text-slate-500" dir="ltr">{u.email}</span>
                </>
              ),
            },
            { id: "roles", header: t("settings.columns.roles"), cell: (u) => u.roles.map((r) => t(`roles.${r}`)).join(" · ") },
            {
              id: "status",
              header: t("settings.columns.status"),
              cell: (u) =>
                u.disabledAt ? (
                  <Badge tone="red">{t("settings.status.disabled")}</Badge>
                ) : u.lockedUntil && u.lockedUntil > now ? (
                  <Badge tone="amber">{t("settings.status.locked")}</Badge>
                ) : (
                  <Badge tone="green">{t("settings.status.active")}</Badge>
                ),
            },
            { id: "created", header: t("settings.columns.created"), className: "px-4 py-2 tabular-nums", cell: (u) => format.dateTime(u.createdAt, { dateStyle: "medium" }) },
          ]}
        />
      </Card>
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

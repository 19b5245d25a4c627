import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { StateBadge } from "@/components/users/state-badge";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { staffPage, listUserAccounts, type StaffPageContext } from "@/lib/auth";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("users"))("title") };
}

/** Settings → Users (administrators): every account with its roles, state and last sign-in. */
export default staffPage("settings", async function UsersPage(_props: object, staff: StaffPageContext) {
  const [t, tn, tr, format] = [await getTranslations("users"), await getTranslations("nav"), await getTranslations("roles"), await getFormatter()];
  const users = await listUserAccounts(staff.db);
  await staff.audit({ action: "users.view", outcome: "success", details: { rows: users.length } });
  const when = (d: Date | null) => (d ? <time dateTime={d.toISOString()}>{format.dateTime(d, { dateStyle: "medium", timeStyle: "short" })}</time> : t("never"));
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/settings" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {tn("settings")}
        </Link>
      </nav>
      <PageHeader title={t("title")} description={t("description")} />
      <Card className="mb-4">
        <DataTable
          label={t("title")}
          rows={users}
          rowKey={(u) => u.id}
          testId="users-table"
          columns={[
            {
              id: "user",
              header: t("columns.user"),
              cell: (u) => (
                <>
                  <Link href={`/settings/users/${u.id}`} className="block font-medium text-brand-800 underline underline-offset-2" data-testid={`manage-${u.email}`}>
                    {u.name}
                    {u.id === staff.user.id && <span className="text-slate-500"> ({t("you")})</span>}
                  </Link>
                  <span className="block break-all text-xs text-slate-500" dir="ltr">
                    {u.email}
                  </span>
                </>
              ),
            },
            { id: "roles", header: t("columns.roles"), cell: (u) => u.roles.map((r) => tr(r)).join(" · ") },
            { id: "state", header: t("columns.state"), cell: (u) => <span data-testid={`state-${u.email}`}><StateBadge user={u} t={t} /></span> },
            { id: "lastSignIn", header: t("columns.lastSignIn"), className: "px-4 py-2 tabular-nums", cell: (u) => when(u.lastSignInAt) },
          ]}
        />
      </Card>
      <p className="text-sm text-slate-600">
        {t("cliHelp")} <code dir="ltr" className="break-all rounded bg-slate-100 px-1 text-xs">npm run admin -- user:create --email … --role … --password-stdin</code>
      </p>
    </>
  );
});

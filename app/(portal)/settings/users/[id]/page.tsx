import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { Card, PageHeader } from "@/components/ui/card";
import { StateBadge } from "@/components/users/state-badge";
import { UserAccountActions } from "@/components/users/user-account-actions";
import { UserRolesForm } from "@/components/users/user-roles-form";
import { getUserAccount, staffPage, type StaffPageContext } from "@/lib/auth";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("users"))("title") };
}

/** One user (administrators, decision 102): roles, password reset, unlock, disable/enable. */
export default staffPage("settings", async function UserPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  const [t, tr, format] = [await getTranslations("users"), await getTranslations("roles"), await getFormatter()];
  const user = await getUserAccount(staff.db, id);
  if (!user) notFound();
  await staff.audit({ action: "users.view_one", target: { type: "user", id: user.id }, outcome: "success" });
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/settings/users" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("back")}
        </Link>
      </nav>
      <PageHeader title={user.name} description={user.roles.map((r) => tr(r)).join(" · ")} />
      <Card className="max-w-3xl p-4">
        <div className="mb-4 space-y-1 text-sm text-slate-700">
          <p className="break-all" dir="ltr">
            {user.email}
          </p>
          <p data-testid="user-state">
            <StateBadge user={user} t={t} />
          </p>
          {user.state === "locked" && user.lockedUntil && <p>{t("lockedUntil", { time: when(user.lockedUntil) })}</p>}
          <p>{t("summary", { created: when(user.createdAt), lastSignIn: user.lastSignInAt ? when(user.lastSignInAt) : t("never") })}</p>
        </div>
        <div className="space-y-4">
          <UserRolesForm userId={user.id} roles={user.roles} />
          <UserAccountActions user={{ id: user.id, name: user.name, locked: user.state === "locked", disabled: user.state === "disabled", self: user.id === staff.user.id }} />
        </div>
      </Card>
    </>
  );
});

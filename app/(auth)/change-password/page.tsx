import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LanguageSwitch } from "@/components/i18n/language-switch";
import { ChangePasswordForm } from "@/components/users/change-password-form";
import { currentUser, homeFor, signOutAction } from "@/lib/auth";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/browser";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("account"))("requiredTitle") };
}

/**
 * Where a user signed in with a temporary password (or the published demo password outside the
 * sandbox) lands: nothing else opens until they choose their own (decision 102).
 */
export default async function RequiredPasswordChangePage() {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  if (!user.mustChangePassword) redirect(homeFor(user.roles));
  const t = await getTranslations();
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <div aria-hidden className="mx-auto mb-4 flex size-12 items-center justify-center rounded-xl bg-brand-700 text-xl font-bold text-white">
            CX
          </div>
          <p className="text-sm font-medium text-brand-700">{env().CLINIC_NAME}</p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight">{t("account.requiredTitle")}</h1>
          <p className="mt-2 text-sm text-slate-600">{t("account.requiredDescription", { min: PASSWORD_MIN_LENGTH })}</p>
          <p className="mt-2 break-all text-sm text-slate-700" dir="ltr" data-testid="current-user-email">
            {user.email}
          </p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <ChangePasswordForm required />
        </div>
        <div className="mt-6 flex flex-wrap items-center justify-center gap-4">
          <LanguageSwitch />
          <form action={signOutAction}>
            <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600">
              {t("shell.signOut")}
            </button>
          </form>
        </div>
      </div>
    </main>
  );
}

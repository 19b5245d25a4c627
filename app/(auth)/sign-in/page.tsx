import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { SignInForm } from "@/components/auth/sign-in-form";
import { LanguageSwitch } from "@/components/i18n/language-switch";
import { currentUser, safeCallbackPath } from "@/lib/auth";
import { env } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("signIn"))("title") };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  if (await currentUser()) redirect(safeCallbackPath(callbackUrl) ?? "/");
  const t = await getTranslations();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <div aria-hidden className="mx-auto mb-4 flex size-12 items-center justify-center rounded-xl bg-brand-700 text-xl font-bold text-white">
            CX
          </div>
          <p className="text-sm font-medium text-brand-700">{t("app.name")}</p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight">{t("signIn.title")}</h1>
          <p className="mt-2 text-sm text-slate-600">{env().CLINIC_NAME}</p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <SignInForm callbackUrl={safeCallbackPath(callbackUrl)} />
        </div>
        <p className="mt-4 text-center text-xs text-slate-500">{t("signIn.help")}</p>
        <div className="mt-6 flex justify-center">
          <LanguageSwitch />
        </div>
      </div>
    </main>
  );
}

import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";

export default async function NotFound() {
  const t = await getTranslations("errors");
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-brand-700">404</p>
        <h1 className="mt-2 text-2xl font-semibold">{t("notFoundTitle")}</h1>
        <p className="mt-3 text-slate-600">{t("notFoundBody")}</p>
        <Link href="/" className={buttonClasses("primary", "mt-6")}>
          {t("backHome")}
        </Link>
      </div>
    </main>
  );
}

import { getLocale, getTranslations } from "next-intl/server";
import { LOCALES, setLocaleAction } from "@/lib/i18n";

/** Each language is named in itself, so a user who cannot read the current one still finds theirs. */
const NATIVE_NAMES = { en: "English", ar: "العربية" } as const;

export async function LanguageSwitch({ tone = "light" }: { tone?: "light" | "dark" }) {
  const [locale, t] = [await getLocale(), await getTranslations("language")];
  return (
    <form action={setLocaleAction} aria-label={t("label")} className="inline-flex rounded-md border border-current/20 p-0.5 text-sm">
      {LOCALES.map((l) => (
        <button
          key={l}
          type="submit"
          name="locale"
          value={l}
          lang={l}
          aria-pressed={l === locale}
          className={[
            "rounded px-2.5 py-1 focus-visible:outline-2 focus-visible:outline-brand-600",
            l === locale
              ? tone === "dark" ? "bg-white/20 font-semibold text-white" : "bg-brand-700 font-semibold text-white"
              : tone === "dark" ? "text-white/80 hover:bg-white/10" : "text-slate-700 hover:bg-slate-100",
          ].join(" ")}
        >
          {NATIVE_NAMES[l]}
        </button>
      ))}
    </form>
  );
}

import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { LanguageSwitch } from "@/components/i18n/language-switch";
import { signOutAction, AREAS, areasFor, homeFor } from "@/lib/auth";
import type { StaffUser } from "@/lib/auth";
import { waitingWork } from "@/lib/claims";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { NavLinks, type NavItem } from "./nav-links";

/** The queues whose menu entries carry a count of work that waits, and where "overdue" opens. */
const COUNTED: Partial<Record<string, Pick<NavItem, "countOf" | "dueHref">>> = {
  informationRequests: { countOf: "informationRequests", dueHref: `${AREAS.informationRequests.href}?show=overdue` },
  claims: { countOf: "claims", dueHref: "/claims/work-queue" },
};

export async function AppShell({ user, clinicName, children }: { user: StaffUser; clinicName: string; children: React.ReactNode }) {
  const t = await getTranslations();
  const items: NavItem[] = areasFor(user.roles).map((area) => ({ href: AREAS[area].href, label: t(`nav.${area}`), ...COUNTED[area] }));
  const counts = { ...(await waitingWork(await getDb(), user.roles, env().CLINIC_TIME_ZONE)) };
  const roles = user.roles.map((r) => t(`roles.${r}`)).join(" · ");
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
        {t("shell.skipToContent")}
      </a>
      <header className="no-print bg-brand-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Link href="/" className="flex items-center gap-3 rounded focus-visible:outline-2 focus-visible:outline-white">
            <span aria-hidden className="flex size-8 items-center justify-center rounded-lg bg-white/15 text-sm font-bold">CX</span>
            <span className="leading-tight">
              <span className="block text-sm font-semibold">{clinicName}</span>
              <span className="block text-xs text-white/70">{t("app.name")}</span>
            </span>
          </Link>
          <div className="flex flex-wrap items-center gap-3">
            <LanguageSwitch tone="dark" />
            <div className="text-end text-xs leading-tight" data-testid="current-user">
              <span className="block font-medium">{user.name}</span>
              <span className="block text-white/70">{roles}</span>
              <Link href="/account/password" className="block text-white/90 underline underline-offset-2 hover:text-white focus-visible:outline-2 focus-visible:outline-white" data-testid="change-my-password">
                {t("account.link")}
              </Link>
            </div>
            <form action={signOutAction}>
              <button type="submit" className="rounded-md border border-white/30 px-3 py-1.5 text-sm hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white">
                {t("shell.signOut")}
              </button>
            </form>
          </div>
        </div>
      </header>
      <div className="no-print border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-2">
          <NavLinks
            items={items}
            label={t("shell.mainNavigation")}
            home={homeFor(user.roles)}
            counts={counts}
            words={{ menu: t("shell.menu"), waiting: t.raw("shell.waiting") as string, waitingDue: t.raw("shell.waitingDue") as string, highlight: t.raw("shell.overdueHighlight") as string, open: t("shell.openOverdue") }}
          />
        </div>
      </div>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 focus:outline-none">
        {children}
      </main>
    </div>
  );
}

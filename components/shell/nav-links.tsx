"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { useHydrated } from "@/components/forms/use-hydrated";

/** A menu entry's count of work that waits (lib/claims waitingWork): `due` of them are due or past due. */
export interface NavCount {
  waiting: number;
  due: number;
}

export interface NavItem {
  href: string;
  label: string;
  /** Which count the entry shows (an area of lib/claims WaitingWork). */
  countOf?: "informationRequests" | "claims";
  /** Where the overdue highlight sends the reader (the queue, filtered). */
  dueHref?: string;
}

export interface NavWords {
  menu: string;
  waiting: string;
  waitingDue: string;
  /** The start page's highlight: "{due} overdue in {area}". */
  highlight: string;
  open: string;
}

const WAITING_KINDS = ["information.request", "submission.status"] as const;

/**
 * The main menu: a row of areas on a desktop, behind a menu button on a phone (< 768 px), each
 * queue with its count of work that waits (red when some is due), updated when a live event
 * arrives; on the user's start page a highlight names what is overdue (docs/decisions/106).
 */
export function NavLinks({ items, label, home, counts: initial, words }: { items: NavItem[]; label: string; home: string; counts: Partial<Record<string, NavCount>>; words: NavWords }) {
  const pathname = usePathname();
  // Open on the page where it was opened: a new page closes the phone's menu.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  // A tap before React has the page would be lost: the button waits for it.
  const hydrated = useHydrated();
  // Counts read after a live event, until the server renders newer ones (a new page).
  const [live, setLive] = useState<{ base: typeof initial; counts: typeof initial } | null>(null);
  const counts = live && live.base === initial ? live.counts : initial;
  const counted = items.some((i) => i.countOf);
  useLiveEvents(
    () => {
      if (!counted) return;
      void fetch("/api/waiting-work", { cache: "no-store" })
        .then((r) => (r.ok ? (r.json() as Promise<Partial<Record<string, NavCount>>>) : undefined))
        .then((next) => next && setLive({ base: initial, counts: next }))
        .catch(() => undefined);
    },
    undefined,
    WAITING_KINDS,
  );
  const fill = (template: string, c: NavCount) => template.replace("{waiting}", String(c.waiting)).replace("{due}", String(c.due));
  const due = items.flatMap((i) => {
    const c = i.countOf ? counts[i.countOf] : undefined;
    return c && c.due > 0 ? [{ item: i, c }] : [];
  });
  return (
    <>
      <nav aria-label={label}>
        <button
          type="button"
          className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 md:hidden"
          aria-expanded={open}
          aria-controls="main-menu"
          disabled={!hydrated}
          onClick={() => setOpenOn(open ? null : pathname)}
          data-testid="menu-button"
        >
          <span aria-hidden className="text-base leading-none">☰</span>
          {words.menu}
          {due.length > 0 && <span aria-hidden className="size-2 rounded-full bg-red-600" />}
        </button>
        <ul id="main-menu" className={`${open ? "mt-2 flex" : "hidden"} flex-col gap-1 md:mt-0 md:flex md:flex-row md:flex-wrap`}>
          {items.map((item) => {
            const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
            const c = item.countOf ? counts[item.countOf] : undefined;
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  className={[
                    "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
                    active ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                  ].join(" ")}
                >
                  <span data-nav-label>{item.label}</span>
                  {c && (
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${c.due > 0 ? "bg-red-700 text-white" : "bg-slate-200 text-slate-800"}`}
                      data-testid={`nav-count-${item.countOf}`}
                      data-waiting={c.waiting}
                      data-due={c.due}
                    >
                      <span aria-hidden>{c.waiting}</span>
                      <span className="sr-only">{fill(c.due > 0 ? words.waitingDue : words.waiting, c)}</span>
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {pathname === home && due.length > 0 && (
        <div className="mt-2 space-y-1" data-testid="overdue-highlight">
          {due.map(({ item, c }) => (
            <p key={item.href} className="flex flex-wrap items-center gap-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
              <span aria-hidden>!</span>
              <span>{words.highlight.replace("{due}", String(c.due)).replace("{area}", item.label)}</span>
              <Link href={item.dueHref ?? item.href} className="font-medium underline underline-offset-2">
                {words.open}
              </Link>
            </p>
          ))}
        </div>
      )}
    </>
  );
}

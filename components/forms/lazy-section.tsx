"use client";

import { lazy, Suspense, type ComponentType } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A part of a form that is a chunk of its own (decision 108, amended 2026-11-29), for `<Suspense>`:
 * the server renders it in place (same labels, same layout), and the browser fetches its code after
 * the page's first load instead of with it.
 *
 * Until that code has hydrated the part, its fields stay disabled (the same rule as the form's own
 * fields, `useHydrated`): text typed into the server's HTML before then would be reset when the part
 * registers its fields. The wrapper is a `<fieldset>` with no box (`display: contents`) and no role
 * of its own, so the part's labels, groups and tab order are what they were.
 */
export function lazySection<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    const Section = await load();
    function LiveSection(props: P) {
      const hydrated = useHydrated();
      return (
        <fieldset role="none" disabled={!hydrated} className="contents">
          <Section {...props} />
        </fieldset>
      );
    }
    LiveSection.displayName = `LiveSection(${Section.displayName ?? Section.name ?? "section"})`;
    return { default: LiveSection };
  });
}

/**
 * A part a page shows in only one of its views, as a chunk of its own (decision 108, amended
 * 2026-11-29): fetched when rendered, rendered in place by the server, so nothing moves meanwhile.
 */
export function lazyInPlace<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Part = lazy(async () => ({ default: await load() }));
  function InPlace(props: P) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  }
  return InPlace;
}

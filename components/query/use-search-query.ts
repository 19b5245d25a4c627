"use client";

import { useEffect, useState } from "react";
import { useActionAnswer } from "./use-action-answer";

/**
 * Search-as-you-type: the text is debounced (250 ms), each distinct text is one cached answer of
 * the tab (typing back to an earlier text answers at once; 30 s fresh), an answer to an older text
 * never replaces a newer one, and the previous results stay while the next ones load. Without
 * TanStack Query, so a form's picker does not carry it (use-action-answer.ts, docs/decisions/108).
 */
export function useSearchQuery<T extends object, R>(
  name: string,
  text: string,
  search: (q: string) => Promise<({ ok: true } & T) | { ok: false; error: string }>,
  pick: (answer: T) => R[],
  delayMs = 250,
): { results: R[]; loading: boolean } {
  const q = text.trim();
  const [settled, setSettled] = useState(q);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(q), delayMs);
    return () => clearTimeout(timer);
  }, [q, delayMs]);
  const answer = useActionAnswer<T>(`search\u0000${name}\u0000${settled}`, () => search(settled), {
    enabled: settled.length > 0,
    staleMs: 30_000,
    keepPrevious: true,
  });
  const results = q && answer.data ? pick(answer.data) : [];
  return { results, loading: q.length > 0 && (settled !== q || answer.fetching) };
}

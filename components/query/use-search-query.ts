"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { usePortalQueryClient } from "./query-client";
import { fromAction } from "./use-live-query";

/**
 * Search-as-you-type through TanStack Query: the text is debounced (250 ms), each distinct text is
 * one cached query (typing back to an earlier text answers at once), an answer to an older text
 * never replaces a newer one, and the previous results stay while the next ones load.
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
  const client = usePortalQueryClient();
  const query = useQuery({
    queryKey: ["search", name, settled],
    queryFn: fromAction(() => search(settled)),
    enabled: settled.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  }, client);
  const results = q && query.data ? pick(query.data) : [];
  return { results, loading: q.length > 0 && (settled !== q || query.isFetching) };
}

"use client";

import { useEffect, useRef, useState } from "react";

/*
 * A server action's answer, cached per browser tab by key: what the pickers and search-as-you-type
 * need (docs/decisions/108). Pages with a form loaded TanStack Query (11 kB compressed) for this
 * alone; the live lists keep using it (use-live-query.ts).
 *
 * - One answer per key, shared by every component of the tab; an answer younger than `staleMs` is
 *   used without asking again, an older one is shown while the action is asked again.
 * - Two components asking for the same key at once make one call.
 * - A refusal ({ ok: false }) or a failure is tried once more, then answers nothing (no data);
 *   the next mount or key asks again.
 * - `keepPrevious`: while a new key loads, the previous key's data stays (search results do not
 *   flash empty between keystrokes). An answer to an older key never replaces a newer key's.
 */

type Answer<T> = ({ ok: true } & T) | { ok: false; error: string };
interface Entry {
  at: number;
  data: unknown;
}

const MAX_ENTRIES = 300;
const answers = new Map<string, Entry>();
const inFlight = new Map<string, Promise<unknown>>();

function remember(key: string, data: unknown) {
  answers.delete(key);
  answers.set(key, { at: Date.now(), data });
  // The oldest first: a Map iterates in insertion order.
  while (answers.size > MAX_ENTRIES) answers.delete(answers.keys().next().value as string);
}

async function ask<T>(key: string, call: () => Promise<Answer<T>>): Promise<T> {
  const running = inFlight.get(key);
  if (running) return running as Promise<T>;
  const attempt = async (): Promise<T> => {
    const answer = await call();
    if (!answer.ok) throw new Error(`the action refused: ${answer.error}`);
    return answer as T;
  };
  const promise = attempt()
    .catch(() => attempt())
    .then((data) => {
      remember(key, data);
      return data;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, promise);
  return promise;
}

/** Forgets every cached answer (tests). */
export function clearActionAnswers(): void {
  answers.clear();
  inFlight.clear();
}

export function useActionAnswer<T extends object>(
  key: string,
  call: () => Promise<Answer<T>>,
  { enabled = true, staleMs, keepPrevious = false }: { enabled?: boolean; staleMs: number; keepPrevious?: boolean },
): { data: T | undefined; fetching: boolean } {
  // The newest answer this component received (for keepPrevious, and to re-render on arrival).
  const [received, setReceived] = useState<{ key: string; data: T | undefined } | undefined>(undefined);
  const callRef = useRef(call);
  useEffect(() => {
    callRef.current = call;
  });
  // A cached answer shows at once; a stale one is asked again in the background.
  const hit = enabled ? answers.get(key) : undefined;
  useEffect(() => {
    if (!enabled) return;
    const cached = answers.get(key);
    if (cached && Date.now() - cached.at < staleMs) return;
    let current = true;
    ask<T>(key, () => callRef.current()).then(
      (data) => current && setReceived({ key, data }),
      () => current && setReceived({ key, data: undefined }),
    );
    return () => {
      current = false;
    };
  }, [key, enabled, staleMs]);
  if (!enabled) return { data: keepPrevious ? received?.data : undefined, fetching: false };
  const data = (hit?.data as T | undefined) ?? (received?.key === key || keepPrevious ? received?.data : undefined);
  return { data, fetching: !hit && received?.key !== key };
}

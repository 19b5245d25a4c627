"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server's HTML and until React has taken over the page; true after. A form's fields
 * stay disabled until then: text typed into the server's HTML would be reset when the form
 * registers its fields (react-hook-form writes its default values), and a submit before then would
 * be the browser's own, sending nothing the portal can read.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(never, () => true, () => false);
}

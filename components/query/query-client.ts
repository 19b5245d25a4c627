import { QueryClient } from "@tanstack/react-query";
import { useState } from "react";

/*
 * The staff portal's TanStack Query client, without a provider in the layout (docs/decisions/099):
 * only the screens that query (live lists, search-as-you-type, the code pickers) load TanStack
 * Query, through `usePortalQueryClient()`, instead of every page carrying it in the layout's
 * first-load JavaScript. In the browser there is one client per tab, kept across client-side
 * navigations as the provider's was; on the server each render gets its own (nothing cached there
 * may reach another request).
 */
let tabClient: QueryClient | undefined;

function createClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: true, retry: 1 } } });
}

/** The tab's client (browser), or a fresh one (server render). */
export function portalQueryClient(): QueryClient {
  if (typeof window === "undefined") return createClient();
  if (!tabClient) {
    tabClient = createClient();
    // What QueryClientProvider did on mount: refetch on window focus and when back online.
    tabClient.mount();
  }
  return tabClient;
}

/** The client for a component: the tab's in the browser, one per server render. Pass it to useQuery. */
export function usePortalQueryClient(): QueryClient {
  const [client] = useState(portalQueryClient);
  return client;
}

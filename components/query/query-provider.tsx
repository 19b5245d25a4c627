"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { LiveEventsProvider } from "@/components/live/live-events";

/**
 * The one TanStack Query client of the staff portal (mounted by app/(portal)/layout.tsx). Server
 * state in the browser lives here; live events (one stream per tab, LiveEventsProvider) invalidate
 * its queries through useLiveQuery.
 */
export function QueryProvider({ children }: { children: React.ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: true, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <LiveEventsProvider>{children}</LiveEventsProvider>
    </QueryClientProvider>
  );
}

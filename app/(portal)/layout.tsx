import { LiveEventsProvider } from "@/components/live/live-events";
import { AppShell } from "@/components/shell/app-shell";
import { requireUser } from "@/lib/auth";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    // The live hub around the shell too: the menu's counts follow live events (docs/decisions/106).
    <LiveEventsProvider>
      <AppShell user={user} clinicName={env().CLINIC_NAME}>
        {children}
      </AppShell>
    </LiveEventsProvider>
  );
}

import { startAdminSocket } from "@/lib/admin";
import { seedDemoUsers } from "@/lib/auth";
import { closeDatabase, getDatabase, getDb, DataDirBusyError } from "@/lib/db";
import { dataDir, env, usesSandbox } from "@/lib/env";
import { startPipeline, type PipelineServices } from "@/lib/pipeline";
import { outboxEligibility } from "@/lib/eligibility";
import { quietClientAborts, startHttpObserver } from "@/lib/http";
import { audit } from "@/lib/audit";
import { setRefusalWriter } from "@/lib/security";
import { getPlatformPort } from "@/lib/platform";
import { listFacilities } from "@/lib/facilities";
import { startVisitWorker, type VisitWorker } from "@/lib/visits";
import { startMaintenance } from "./maintenance";
import { onShutdownSignal } from "./shutdown";
import { INBOUND_HANDLERS } from "./inbound-handlers";
import { provideOwnerReads } from "./owner-reads";
import { startInFlightCounter } from "./in-flight";
import { log } from "@/lib/log";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs once when the server process starts (instrumentation.ts): validates the configuration,
 * opens and migrates the database, seeds the demo data on a new sandbox installation, on PGlite
 * opens the admin socket for the CLI, and starts the submission pipeline (outbox worker, poller).
 */
export async function boot(): Promise<void> {
  const e = env();
  // The reads the lower layers ask of lib/submissions through the composition (docs/decisions/127).
  provideOwnerReads();
  // A client hanging up mid-body is counted, not printed with a stack (docs/decisions/094).
  quietClientAborts();
  startHttpObserver();
  startInFlightCounter();
  // The admin CLI may hold the PGlite directory for a moment; wait for it rather than fail.
  for (let attempt = 0; ; attempt++) {
    try {
      await getDatabase();
      break;
    } catch (error) {
      if (!(error instanceof DataDirBusyError) || attempt >= 60) throw error;
      await sleep(500);
    }
  }
  const database = await getDatabase();
  // The trends' clinic-day rows follow the clinic's time zone (docs/decisions/107): rebuilt here when it changed.
  if (await (await import("@/lib/dashboard")).setDashboardClock(database.db, e.CLINIC_TIME_ZONE)) {
    log("boot").info(`rebuilt the dashboards' clinic days for ${e.CLINIC_TIME_ZONE}`);
  }
  // Requests proxy.ts refuses (cross-origin writes) are audited through the one audit writer.
  setRefusalWriter((entry) => audit(database.db, entry));
  if (usesSandbox(e)) {
    if (await seedDemoUsers(database.db, e.DEMO_PASSWORD)) log("boot").info("seeded the demo users");
    if (await (await import("@/lib/patients")).seedDemoPatients(database.db)) log("boot").info("seeded the demo patients");
    // The demo payers' contracts: the same file the sandbox adjudicates with (docs/decisions/089).
    if (await (await import("@/lib/contracts")).seedDemoContracts(database.db)) log("boot").info("seeded the demo contracts");
    if (await (await import("@/lib/facilities")).seedDemoPractitioners(database.db)) log("boot").info("seeded the demo practitioners");
  }
  const adminSocket = database.kind === "pglite" ? await startAdminSocket(dataDir(e), getDb) : undefined;
  const maintenance = startMaintenance(database.db);

  let services: PipelineServices | undefined;
  let visitWorker: VisitWorker | undefined;
  onShutdownSignal(() => ({
    db: database.db,
    services,
    graceMs: e.SHUTDOWN_GRACE_MS,
    close: async () => {
      await visitWorker?.stop().catch(() => undefined);
      maintenance.stop();
      adminSocket?.close();
      await closeDatabase();
    },
  }));
  if (!e.NEXT_MANUAL_SIG_HANDLE) log("boot").warn("NEXT_MANUAL_SIG_HANDLE is not set: Next.js may exit on SIGTERM before in-flight work finishes");

  if (e.PLATFORM_BASE_URL) {
    // A platform that is configured but unusable (missing certificate file, …) stops the start.
    const client = await getPlatformPort();
    services = startPipeline({
      db: database.db,
      client,
      inbound: INBOUND_HANDLERS,
      // Facilities beyond the main one (decision 049): each sends and polls with its own certificate.
      clientFor: (facilityId) => getPlatformPort(facilityId),
      facilityPorts: async () => Promise.all((await listFacilities(database.db)).filter((f) => f.active && f.id).map((f) => getPlatformPort(f.id))),
      // A claim's eligibility is checked before it is sent, never in the staff's submit (decision 124).
      preSendEligibility: outboxEligibility(database.db),
    });
    // Eligibility ahead of the visit: paced batch runs at batch priority (decision 044).
    visitWorker = startVisitWorker({ db: database.db, port: client, providerOrgId: e.PROVIDER_ORG_ID });
    log("boot").info(`submission pipeline started (${e.PLATFORM_ENV} platform, ${client.protocol} protocol)`);
  } else {
    log("boot").warn("no platform configured (PLATFORM_BASE_URL): submissions stay queued until one is");
  }
}

/** A portal that cannot open its database must not half-run: say why and exit. */
export async function bootOrExit(): Promise<void> {
  try {
    await boot();
  } catch (error) {
    log("boot").error(`the portal cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
}

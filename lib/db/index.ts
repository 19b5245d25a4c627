import { dataDir, env } from "@/lib/env";
import { openDatabase, type Database, type Db } from "./client";
export { driverClient, queryRows } from "./client";
import { runMigrations } from "./migrate";

export type { Database, Db, Tx } from "./client";
export * as tables from "./schema";

/**
 * One connection per process, opened on first use and kept on globalThis: `next build` imports
 * route modules without calling this (so no data dir is created or locked at build time), and
 * dev-mode reloads reuse the open PGlite instead of opening a second one.
 */
const holder = globalThis as typeof globalThis & { __clinicDb?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  holder.__clinicDb ??= (async () => {
    const e = env();
    const database = await openDatabase(
      e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", dataDir: dataDir(e) },
    );
    try {
      await runMigrations(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  })().catch((error: unknown) => {
    holder.__clinicDb = undefined;
    throw error;
  });
  return holder.__clinicDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Closes the process-wide connection (graceful shutdown, CLI exit). */
export async function closeDatabase(): Promise<void> {
  const pending = holder.__clinicDb;
  holder.__clinicDb = undefined;
  if (pending) await (await pending).close();
}
export { openDatabase } from "./client";
export { migrationsFolder, runMigrations } from "./migrate";
export { DataDirBusyError, lockHolder } from "./pglite-lock";
export { AUDIT_OUTCOMES, ROLES, SUBMISSION_STATUSES, adjudicationHourly, apiKeys, apiRateCounters, appMeta, attachments, auditEvents, authSessions, coverages, eligibilityChecks, facilities, gatewayNotificationPositions, gatewayTokens, insurers, jwtReplays, liveEvents, oauthClients, offlineEligibilities, oauthTokens, orgClients, orgKeys, patients, signInFailures, submissionEvents, submissions, users, webhookReceipts } from "./schema";
export type { ApiEnvironment, AuditOutcome, EligibilityOutcome, Role, SubmissionKind, SubmissionStatus, TransitionSource } from "./schema";
export type { PatientGender } from "./schema/patients";
export { VISIT_VERDICTS, platformRateWaiters, visitLists, visitRuns, visits } from "./schema";
export type { VisitCheckState, VisitListSource, VisitRowProblem, VisitRunStatus, VisitVerdict, VisitVerdictDetail } from "./schema";
// decision 045 (information requests).
export { INFORMATION_REQUEST_STATUSES, informationRequests } from "./schema";
export type { InformationRequestStatus } from "./schema";
export { EVIDENCE_STATUSES, evidenceMessages } from "./schema";
export type { EvidenceStatus } from "./schema";
// decision 089 (payer contracts).
export { contractPrices } from "./schema";
// Care settings (docs/decisions/083, 084): the clinic's practitioners, the patient's document type.
export { PATIENT_DOCUMENT_TYPES, practitioners } from "./schema";
export type { PatientDocumentType } from "./schema";

// Decision 096: the inbox (lib/inbox is its one reader and writer).
export { INBOX_SOURCES, INBOX_STATUSES, inboxMessages, inboxPolls } from "./schema";
export type { InboxSource, InboxStatus, InboxSummary } from "./schema";

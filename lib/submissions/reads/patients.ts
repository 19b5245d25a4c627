import { desc, eq } from "drizzle-orm";
import { submissions, type Db, type SubmissionStatus, type Tx } from "@/lib/db";
import { outcomeOfView, type StatusOutcome } from "@/lib/i18n";

/**
 * What the patient registry (a lower layer) may know of the submissions under a patient, asked by
 * the caller above it and passed down (docs/decisions/127): whether anything was sent under a
 * national ID, and the patient's authorizations and claims for the patient's page.
 */

/**
 * Whether any submission names this national ID. Takes the caller's transaction so the correction
 * of a patient's number reads it in the same transaction that changes the number.
 */
export async function hasSubmissionsFor(db: Db | Tx, nationalId: string): Promise<boolean> {
  const [sent] = await db.select({ id: submissions.id }).from(submissions).where(eq(submissions.patientNationalId, nationalId)).limit(1);
  return sent !== undefined;
}

/** One authorization, claim or prescription on the patient's page. */
export interface PatientSubmission {
  id: string;
  kind: "preauthorization" | "claim" | "prescription";
  status: SubmissionStatus;
  insurerId: string | null;
  totalMinor: number | null;
  currency: string | null;
  createdAt: Date;
  /** What the decision paid (zero-benefit decisions have their own words). */
  outcome?: StatusOutcome;
  /** A payer's advanced authorization (channel `payer`, docs/decisions/101): shown as "approved by the payer". */
  fromPayer?: true;
  /** The payer's reference and validity end (advanced authorizations). */
  preAuthRef?: string;
  validUntil?: string;
}

/** The reference and validity end a payer's advanced authorization states (its stored reader's view). */
function payerTerms(view: Record<string, unknown> | null): { preAuthRef?: string; validUntil?: string } {
  const ref = view?.preAuthRef;
  const end = (view?.preAuthPeriod as { end?: unknown } | undefined)?.end;
  return { ...(typeof ref === "string" ? { preAuthRef: ref } : {}), ...(typeof end === "string" ? { validUntil: end } : {}) };
}

/** Authorizations and claims of a patient by national ID, newest first. Read-only. */
export async function submissionsOfPatient(db: Db, nationalId: string, limit = 50): Promise<PatientSubmission[]> {
  const rows = await db
    .select({
      id: submissions.id,
      kind: submissions.kind,
      status: submissions.status,
      insurerId: submissions.insurerId,
      totalMinor: submissions.totalMinor,
      currency: submissions.currency,
      createdAt: submissions.createdAt,
      responseView: submissions.responseView,
      channel: submissions.channel,
    })
    .from(submissions)
    .where(eq(submissions.patientNationalId, nationalId))
    .orderBy(desc(submissions.createdAt))
    .limit(limit);
  return rows.map(({ responseView, channel, ...r }) => ({ ...r, ...(responseView ? { outcome: outcomeOfView(responseView) } : {}), ...(channel === "payer" ? { fromPayer: true as const, ...payerTerms(responseView) } : {}) }));
}

import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import { nphies } from "@/lib/fhir";

/**
 * Whether a claim or authorization past its draft carries this offline eligibility
 * (extension-eligibility-offline-reference with its reference, guide Table 10): then it may no longer
 * be corrected or removed (decision 120). `patientId` is the patient's document number, as
 * submissions store it.
 */
export async function offlineEligibilityInUse(db: Db, patientNationalId: string, reference: string): Promise<boolean> {
  const carried = JSON.stringify({ extension: [{ url: nphies.EXTENSIONS.eligibilityOfflineReference, valueString: reference }] });
  const [row] = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.patientNationalId, patientNationalId), ne(submissions.status, "draft"), sql`${submissions.claim} @> ${carried}::jsonb`))
    .limit(1);
  return row !== undefined;
}

import { and, arrayContains, desc, eq, ne } from "drizzle-orm";
import { eligibilityChecks, type Db } from "@/lib/db";
import { coverageTermsOf } from "@/lib/patients";
import { isFhirReadError, readCoverageEligibilityResponse, servicesNeedingAuthorization } from "@/lib/fhir";

/**
 * Which services the payer said need a prior authorization for this patient's coverage: the newest
 * answered eligibility check of that coverage that asked `auth-requirements` (guide 7.1, Table 36),
 * read again from the answer as received. Undefined when no such answer is on file, or the coverage
 * is not the patient's. The authorization and claim forms mark these lines.
 */
export async function authorizationRequirementsFor(db: Db, patientId: string, coverageId: string): Promise<{ codes: string[]; checkedAt: string } | undefined> {
  const coverage = await coverageTermsOf(db, patientId, coverageId);
  if (!coverage) return undefined;
  const [check] = await db
    .select({ response: eligibilityChecks.response, checkedAt: eligibilityChecks.checkedAt })
    .from(eligibilityChecks)
    .where(and(eq(eligibilityChecks.coverageId, coverageId), arrayContains(eligibilityChecks.purposes, ["auth-requirements"]), ne(eligibilityChecks.outcome, "rejected")))
    .orderBy(desc(eligibilityChecks.checkedAt))
    .limit(1);
  if (!check?.response) return undefined;
  try {
    const { view } = readCoverageEligibilityResponse(check.response);
    return { codes: [...new Set(servicesNeedingAuthorization(view).flatMap((s) => (s.code ? [s.code] : [])))], checkedAt: check.checkedAt.toISOString() };
  } catch (error) {
    if (isFhirReadError(error)) return undefined;
    throw error;
  }
}

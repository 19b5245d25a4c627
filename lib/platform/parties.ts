import type { Claim } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { coverages, insurers, patients } from "@/lib/db";
import { nphies } from "@/lib/fhir";

/** The parties of a claim message, from the portal's records (undefined when a party is not known). */
export type PartiesResolver = (claim: Claim) => Promise<nphies.MessageParties | undefined>;

const idIn = (reference: string | undefined, type: string) => new RegExp(`(?:^|/)${type}/([A-Za-z0-9\\-.]{1,64})$`).exec(reference ?? "")?.[1];

/**
 * Reads a claim's parties from the database for message assembly (docs/decisions/074): the patient
 * (`Patient/<national ID or Iqama>`), the coverage (`Coverage/<coverage_ref>`), its insurer, and
 * the sending facility. The document type follows the number (1… national ID, 2… Iqama), the only
 * two the registry holds; practitioners and encounters are not recorded yet, so a message goes
 * without them and the rule checker names what is missing.
 */
export function partiesFromDb(db: Db, provider: nphies.ProviderFacts): PartiesResolver {
  return async (claim) => {
    const nationalId = idIn(claim.patient?.reference, "Patient");
    const coverageRef = idIn(claim.insurance?.[0]?.coverage?.reference, "Coverage");
    if (!nationalId || !coverageRef) return undefined;
    const [row] = await db
      .select({ patient: patients, coverage: coverages, insurer: insurers })
      .from(coverages)
      .innerJoin(patients, eq(coverages.patientId, patients.id))
      .innerJoin(insurers, eq(coverages.insurerId, insurers.id))
      .where(eq(coverages.coverageRef, coverageRef))
      .limit(1);
    if (!row || row.patient.nationalId !== nationalId || !row.insurer.license) return undefined;
    return {
      patient: {
        id: nationalId,
        document: nationalId.startsWith("2") ? "iqama" : "nationalId",
        number: nationalId,
        givenName: row.patient.givenName,
        familyName: row.patient.familyName,
        gender: row.patient.gender,
        birthDate: row.patient.birthDate,
      },
      coverage: { id: coverageRef, memberId: row.coverage.memberId },
      provider,
      insurer: { id: row.insurer.id, license: row.insurer.license, name: row.insurer.nameEn },
    };
  };
}

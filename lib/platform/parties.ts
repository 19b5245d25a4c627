import type { Claim, CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { coverages, insurers, patients } from "@/lib/db";
import { practitionersByIds } from "@/lib/facilities";
import { PORTAL_URI_BASE, nphies } from "@/lib/fhir";
import { isUuid } from "@/lib/ids";

/** The parties of a claim or eligibility message, from the portal's records (undefined when a party is not known). */
export type PartiesResolver = (focus: Claim | CoverageEligibilityRequest) => Promise<nphies.MessageParties | undefined>;

const idIn = (reference: string | undefined, type: string) => new RegExp(`(?:^|/)${type}/([A-Za-z0-9\\-.]{1,64})$`).exec(reference ?? "")?.[1];

/** The encounter system of the portal's inpatient and emergency stays. */
const ENCOUNTER_SYSTEM = `${PORTAL_URI_BASE}/encounter`;

/**
 * The encounter of an inpatient or emergency claim, from what the form recorded (docs/decisions/083):
 * its stay (`billablePeriod`, admission → discharge), its class by subtype, named by the episode
 * when there is one, else by the claim's own identifier. None for other claims or without a stay.
 */
export function encounterOf(claim: Claim): nphies.EncounterFacts | undefined {
  const subtype = claim.subType?.coding?.find((c) => c.system === nphies.SYSTEMS.claimSubtype)?.code;
  const start = claim.billablePeriod?.start;
  if ((subtype !== "ip" && subtype !== "emr") || !start) return undefined;
  const episode = claim.extension?.find((e) => e.url === nphies.EXTENSIONS.episode)?.valueIdentifier?.value;
  const value = episode ?? claim.identifier?.[0]?.value;
  if (!value) return undefined;
  const end = claim.billablePeriod?.end;
  return {
    id: `enc-${value}`.replace(/[^A-Za-z0-9\-.]/g, "-").slice(0, 64),
    identifier: { system: ENCOUNTER_SYSTEM, value },
    class: nphies.ENCOUNTER_CLASS_BY_SUBTYPE[subtype][0]!,
    status: end ? "finished" : "in-progress",
    start,
    ...(end ? { end } : {}),
  };
}

/**
 * Reads a claim's or an eligibility request's parties from the database for message assembly
 * (docs/decisions/074, 075): the patient
 * (`Patient/<document number>`, with its document type), the coverage (`Coverage/<coverage_ref>`),
 * its insurer, the sending facility, the care team's practitioners (`Practitioner/<id>` of the
 * practitioners table) and the encounter of an inpatient or emergency stay (docs/decisions/083,
 * 084); for an eligibility request, the coverage it names or else the patient's newest with its
 * insurer, and the facility as a Location. What is not recorded goes without: the rule checker names it.
 */
export function partiesFromDb(db: Db, provider: nphies.ProviderFacts, location?: nphies.LocationFacts): PartiesResolver {
  /** The coverage a request names; an eligibility request that names none asks about the patient's newest with its insurer. */
  async function coverageRow(nationalId: string, coverageRef: string | undefined, insurerId: string | undefined) {
    const select = db.select({ patient: patients, coverage: coverages, insurer: insurers }).from(coverages).innerJoin(patients, eq(coverages.patientId, patients.id)).innerJoin(insurers, eq(coverages.insurerId, insurers.id));
    if (coverageRef) return (await select.where(eq(coverages.coverageRef, coverageRef)).limit(1))[0];
    if (!insurerId) return undefined;
    return (await select.where(and(eq(patients.nationalId, nationalId), eq(coverages.insurerId, insurerId))).orderBy(desc(coverages.createdAt)).limit(1))[0];
  }

  return async (focus) => {
    const nationalId = idIn(focus.patient?.reference, "Patient");
    const coverageRef = idIn(focus.insurance?.[0]?.coverage?.reference, "Coverage");
    const claim = focus.resourceType === "Claim" ? focus : undefined;
    if (!nationalId || (claim && !coverageRef)) return undefined;
    const row = await coverageRow(nationalId, coverageRef, claim ? undefined : idIn(focus.insurer?.reference, "Organization"));
    if (!row || row.patient.nationalId !== nationalId || !row.insurer.license) return undefined;
    const teamIds = (claim?.careTeam ?? []).map((m) => idIn(m.provider?.reference, "Practitioner")).filter((id): id is string => !!id && isUuid(id));
    const practitioners = (await practitionersByIds(db, teamIds)).map((p) => ({ id: p.id, license: p.license, givenName: p.givenName, familyName: p.familyName, specialty: p.specialty }));
    const encounter = claim ? encounterOf(claim) : undefined;
    return {
      ...(practitioners.length > 0 ? { practitioners } : {}),
      ...(encounter ? { encounter } : {}),
      // The site an eligibility request asks about (the exchange names it: decision 075).
      ...(location && !claim ? { location } : {}),
      patient: {
        id: nationalId,
        document: row.patient.documentType,
        number: nationalId,
        givenName: row.patient.givenName,
        familyName: row.patient.familyName,
        gender: row.patient.gender,
        birthDate: row.patient.birthDate,
        ...(row.patient.maritalStatus ? { maritalStatus: row.patient.maritalStatus } : {}),
      },
      // The class and network the card names, as recorded at the desk or imported (Coverage.class, .network).
      coverage: {
        id: row.coverage.coverageRef,
        memberId: row.coverage.memberId,
        ...(row.coverage.coverageClass ? { classes: [{ type: "class" as const, value: row.coverage.coverageClass }] } : {}),
        ...(row.coverage.network ? { network: row.coverage.network } : {}),
      },
      provider,
      insurer: { id: row.insurer.id, license: row.insurer.license, name: row.insurer.nameEn },
    };
  };
}

import type { Claim, CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { insurers, patients } from "@/lib/db";
import { practitionersByIds } from "@/lib/facilities";
import { PORTAL_URI_BASE, nphies } from "@/lib/fhir";
import { isUuid } from "@/lib/ids";
import { coverageRecordFor } from "@/lib/patients";

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
    if (coverageRef) return coverageRecordFor(db, { coverageRef });
    if (!insurerId) return undefined;
    return coverageRecordFor(db, { nationalId, insurerId });
  }

  /** A discovery's patient and insurer, without a coverage. */
  async function discoveryRow(nationalId: string, insurerId: string | undefined) {
    if (!insurerId) return undefined;
    const [patient] = await db.select().from(patients).where(eq(patients.nationalId, nationalId)).limit(1);
    const [insurer] = await db.select().from(insurers).where(eq(insurers.id, insurerId)).limit(1);
    return patient && insurer ? { patient, insurer, coverage: undefined } : undefined;
  }

  return async (focus) => {
    const nationalId = idIn(focus.patient?.reference, "Patient");
    const coverageRef = idIn(focus.insurance?.[0]?.coverage?.reference, "Coverage");
    const claim = focus.resourceType === "Claim" ? focus : undefined;
    if (!nationalId || (claim && !coverageRef)) return undefined;
    const insurerId = claim ? undefined : idIn(focus.insurer?.reference, "Organization");
    // A discovery (guide 7.1, Table 36) names no coverage: the patient and the insurer asked.
    const discovery = focus.resourceType === "CoverageEligibilityRequest" && !!focus.purpose?.includes("discovery") && !coverageRef;
    const row = discovery ? await discoveryRow(nationalId, insurerId) : await coverageRow(nationalId, coverageRef, insurerId);
    if (!row || !row.insurer.license) return undefined;
    // A newborn's request names the mother's coverage (guide 6.5, docs/decisions/110): the baby is
    // the patient, the mother the coverage's beneficiary, carried as a Patient of her own.
    let baby: typeof row.patient | undefined;
    if (row.patient.nationalId !== nationalId) {
      if (discovery || !nphies.isNewbornRequest(focus as unknown as Record<string, unknown>)) return undefined;
      [baby] = await db.select().from(patients).where(and(eq(patients.nationalId, nationalId), eq(patients.motherId, row.patient.id))).limit(1);
      if (!baby) return undefined;
    }
    const facts = (p: typeof row.patient): nphies.PatientFacts => ({
      id: p.nationalId,
      document: p.documentType,
      number: p.nationalId,
      givenName: p.givenName,
      familyName: p.familyName,
      gender: p.gender,
      birthDate: p.birthDate,
      ...(p.maritalStatus ? { maritalStatus: p.maritalStatus } : {}),
      ...(p.occupation ? { occupation: p.occupation } : {}),
      ...(p.religion ? { religion: p.religion } : {}),
    });
    const teamIds = (claim?.careTeam ?? []).map((m) => idIn(m.provider?.reference, "Practitioner")).filter((id): id is string => !!id && isUuid(id));
    const practitioners = (await practitionersByIds(db, teamIds)).map((p) => ({ id: p.id, license: p.license, givenName: p.givenName, familyName: p.familyName, specialty: p.specialty }));
    const encounter = claim ? encounterOf(claim) : undefined;
    return {
      ...(practitioners.length > 0 ? { practitioners } : {}),
      ...(encounter ? { encounter } : {}),
      // The site an eligibility request asks about (the exchange names it: decision 075).
      ...(location && !claim ? { location } : {}),
      patient: facts(baby ?? row.patient),
      ...(baby ? { mother: facts(row.patient) } : {}),
      // The class and network the card names, as recorded at the desk or imported (Coverage.class, .network).
      ...(row.coverage
        ? {
            coverage: {
              id: row.coverage.coverageRef,
              memberId: row.coverage.memberId,
              ...(row.coverage.coverageClass ? { classes: [{ type: "class" as const, value: row.coverage.coverageClass }] } : {}),
              ...(row.coverage.network ? { network: row.coverage.network } : {}),
              ...(row.coverage.expiresOn ? { periodEnd: row.coverage.expiresOn } : {}),
            },
          }
        : {}),
      provider,
      insurer: { id: row.insurer.id, license: row.insurer.license, name: row.insurer.nameEn },
    };
  };
}

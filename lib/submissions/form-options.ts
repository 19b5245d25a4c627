import type { Db } from "@/lib/db";
import { listPractitioners, userFacilityId } from "@/lib/facilities";
import type { MdsCodeLists } from "@/lib/fhir/mds";
import { mdsCodeLists, specialtyNames } from "@/lib/terminology";
import type { PlatformProtocol } from "./care-setting";

export interface CareTeamOption {
  id: string;
  name: string;
  license: string;
  specialty: string;
  /** The specialty in words, when the catalogue names it. */
  specialtyName?: { en: string; ar: string };
}

/**
 * What the claim and authorization forms choose from, read once by their pages: the care team
 * (the user's facility's practitioners and the main facility's, decision 084) with their
 * specialties in words, and — where the message goes to the national exchange — the visit details'
 * value sets as the catalogue holds them (the clinic's imports, decision 118).
 */
export async function submissionFormOptions(db: Db, userId: string, protocol: PlatformProtocol): Promise<{ practitioners: CareTeamOption[]; codeLists?: MdsCodeLists }> {
  const list = await listPractitioners(db, await userFacilityId(db, userId));
  const names = await specialtyNames(db, list.map((p) => p.specialty));
  const practitioners = list.map((p) => ({
    id: p.id,
    name: `${p.givenName} ${p.familyName}`,
    license: p.license,
    specialty: p.specialty,
    ...(Object.hasOwn(names, p.specialty) ? { specialtyName: names[p.specialty] } : {}),
  }));
  return { practitioners, ...(protocol === "messaging" ? { codeLists: await mdsCodeLists(db) } : {}) };
}

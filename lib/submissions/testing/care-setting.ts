import { listPractitioners, seedDemoPractitioners } from "@/lib/facilities";
import type { Db } from "@/lib/db";

/**
 * The care-setting answers a professional outpatient form needs (decision 083): the demo
 * practitioners seeded, the first as the care team, and a chief complaint.
 */
export async function professionalCare(db: Db): Promise<{ claimType: "professional"; subtype: "op"; careTeam: string[]; chiefComplaint: string }> {
  await seedDemoPractitioners(db);
  const [first] = await listPractitioners(db, null);
  if (!first) throw new Error("no practitioner seeded");
  return { claimType: "professional", subtype: "op", careTeam: [first.id], chiefComplaint: "Pain for a week" };
}

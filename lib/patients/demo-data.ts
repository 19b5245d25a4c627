import { eq } from "drizzle-orm";
import { audit } from "@/lib/audit";
import type { Db, PatientGender } from "@/lib/db";
import { appMeta, coverages, insurers, patients } from "@/lib/db";

/**
 * Demo data for a new installation on the embedded sandbox: the sandbox's payers and its
 * published test patients with their coverages. The values are copied from sandbox/README.md
 * ("Reference data") on purpose — the portal never imports the sandbox.
 */
export const DEMO_INSURERS = [
  { id: "payer-rimal", nameEn: "Rimal Cooperative Health Insurance", nameAr: "رمال للتأمين الصحي التعاوني", license: "7000000101" },
  { id: "payer-wadi", nameEn: "Wadi Takaful Health", nameAr: "وادي للتكافل الصحي", license: "7000000102" },
  { id: "payer-nakheel", nameEn: "Nakheel Mutual Health", nameAr: "نخيل للتأمين الصحي التبادلي", license: "7000000103" },
] as const;

interface DemoPatient {
  nationalId: string;
  givenName: string;
  familyName: string;
  birthDate: string;
  gender: PatientGender;
  phone: string;
  /** v3-MaritalStatus, as asked at registration (the exchange's Minimum Data Set, decision 103). */
  maritalStatus: string;
  /** The plan the card names (Coverage.class, sent as the coverage's class). */
  coverage: { insurerId: string; memberId: string; coverageRef: string; coverageClass: string };
}

export const DEMO_PATIENTS: readonly DemoPatient[] = [
  // In force (Rimal Gold), several categories partly used.
  { nationalId: "1000000001", givenName: "Test", familyName: "Patient One", birthDate: "1985-03-14", gender: "female", phone: "+966500000001", maritalStatus: "M", coverage: { insurerId: "payer-rimal", memberId: "RML-GOLD-0001", coverageRef: "cov-1000000001", coverageClass: "Gold" } },
  // Lapsed at the end of last year (Wadi Silver): not in force.
  { nationalId: "1000000002", givenName: "Test", familyName: "Patient Two", birthDate: "1979-11-02", gender: "male", phone: "+966500000002", maritalStatus: "M", coverage: { insurerId: "payer-wadi", memberId: "WDI-SLV-0002", coverageRef: "cov-1000000002", coverageClass: "Silver" } },
  // The card says Rimal, but the platform has no coverage for this patient: ERR-002.
  { nationalId: "1000000003", givenName: "Test", familyName: "Patient Three", birthDate: "1992-07-21", gender: "female", phone: "+966500000003", maritalStatus: "S", coverage: { insurerId: "payer-rimal", memberId: "RML-0003", coverageRef: "cov-1000000003", coverageClass: "Gold" } },
  { nationalId: "1048573628", givenName: "Huda", familyName: "Al-Sandbox", birthDate: "1990-01-09", gender: "female", phone: "+966551234567", maritalStatus: "S", coverage: { insurerId: "payer-nakheel", memberId: "NKH-BSC-4857", coverageRef: "cov-1048573628", coverageClass: "Basic" } },
  { nationalId: "2087654311", givenName: "Omar", familyName: "Testresident", birthDate: "1988-05-30", gender: "male", phone: "+966562345678", maritalStatus: "M", coverage: { insurerId: "payer-rimal", memberId: "RML-SLV-8765", coverageRef: "cov-2087654311", coverageClass: "Silver" } },
  { nationalId: "1122334459", givenName: "Nora", familyName: "Al-Example", birthDate: "1975-12-12", gender: "female", phone: "+966573456789", maritalStatus: "W", coverage: { insurerId: "payer-wadi", memberId: "WDI-SLV-2233", coverageRef: "cov-1122334459", coverageClass: "Silver" } },
];

const MARKER = "demo_patients_seeded";

/**
 * Seeds insurers, patients and coverages once, into a database that has no patients yet. The
 * caller runs it only with the embedded sandbox. Returns whether it seeded.
 */
export async function seedDemoPatients(db: Db): Promise<boolean> {
  const [marker] = await db.select().from(appMeta).where(eq(appMeta.key, MARKER));
  if (marker) return false;
  const seeded = await db.transaction(async (tx) => {
    await tx.insert(insurers).values([...DEMO_INSURERS]).onConflictDoNothing();
    const [existing] = await tx.select({ id: patients.id }).from(patients).limit(1);
    if (!existing) {
      for (const p of DEMO_PATIENTS) {
        const { coverage, ...patient } = p;
        const [row] = await tx
          .insert(patients)
          .values({ ...patient, documentType: patient.nationalId.startsWith("2") ? "iqama" : "nationalId" })
          .onConflictDoNothing()
          .returning({ id: patients.id });
        if (row) await tx.insert(coverages).values({ patientId: row.id, ...coverage });
      }
    }
    // onConflictDoNothing: two instances starting together on one PostgreSQL seed once.
    const inserted = await tx.insert(appMeta).values({ key: MARKER, value: { at: new Date().toISOString() } }).onConflictDoNothing().returning();
    return inserted.length > 0 && !existing;
  });
  if (seeded) {
    await audit(db, { actor: { kind: "system", name: "startup" }, action: "patient.seed_demo", outcome: "success", details: { patients: DEMO_PATIENTS.length, insurers: DEMO_INSURERS.length } });
  }
  return seeded;
}

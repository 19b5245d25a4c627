import { desc, eq } from "drizzle-orm";
import type { Db, EligibilityOutcome } from "@/lib/db";
import { eligibilityChecks, insurers, patients, users } from "@/lib/db";
import { isFhirReadError, readCoverageEligibilityResponse, type BenefitsView } from "@/lib/fhir";
import { coverageSummary } from "@/lib/patients";
import type { EligibilityField } from "./schema";
import { isUuid } from "@/lib/ids";

export type EligibilityCheckRow = typeof eligibilityChecks.$inferSelect;
export type NewEligibilityCheck = typeof eligibilityChecks.$inferInsert;

/** Where a platform refusal is shown on the form. */
export type ErrorField = EligibilityField | "form";

/** A stored check as the result screen shows it (plain data: it crosses to the browser). */
export interface EligibilityCheckView {
  id: string;
  checkedAt: string;
  checkedByName?: string;
  requestId: string;
  patient: { id: string; nationalId: string; givenName: string; familyName: string };
  insurer: { id: string; nameEn: string; nameAr: string };
  /** `network`, `coverageClass`: the coverage's contract rows (docs/decisions/089); '' when not known. */
  coverage?: { id: string; memberId: string; coverageRef: string; network?: string; coverageClass?: string };
  servicedDate: string;
  purposes: string[];
  categories: string[];
  outcome: EligibilityOutcome;
  inforce: boolean | null;
  benefits?: BenefitsView;
  error?: { code?: string; status?: number; field: ErrorField };
}

export async function saveCheck(db: Db, values: NewEligibilityCheck): Promise<EligibilityCheckRow> {
  const [row] = await db.insert(eligibilityChecks).values(values).returning();
  if (!row) throw new Error("eligibility check was not stored");
  return row;
}

/** ERR-00x (and the field the platform named) → the form field to show it on. */
export function errorField(code: string | undefined, field: string | undefined): ErrorField {
  const path = (field ?? "").toLowerCase();
  switch (code) {
    case "ERR-001":
      return "patientId";
    case "ERR-002":
      return "coverageId";
    case "ERR-003":
      return path.includes("purpose") ? "purposes" : "categories";
    case "ERR-004":
      if (path.includes("patient")) return "patientId";
      if (path.includes("insurer") || path.includes("insurance") || path.includes("coverage")) return "coverageId";
      if (path.includes("serviceddate")) return "servicedDate";
      if (path.includes("purpose")) return "purposes";
      if (path.includes("item") || path.includes("category")) return "categories";
      return "form";
    default:
      return "form";
  }
}

/** One check with everything the result screen needs, or undefined. */
export async function getCheckView(db: Db, id: string): Promise<EligibilityCheckView | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({
      check: eligibilityChecks,
      patient: { id: patients.id, nationalId: patients.nationalId, givenName: patients.givenName, familyName: patients.familyName },
      insurer: { id: insurers.id, nameEn: insurers.nameEn, nameAr: insurers.nameAr },
      checkedByName: users.name,
    })
    .from(eligibilityChecks)
    .innerJoin(patients, eq(patients.id, eligibilityChecks.patientId))
    .leftJoin(insurers, eq(insurers.id, eligibilityChecks.insurerId))
    .leftJoin(users, eq(users.id, eligibilityChecks.checkedBy))
    .where(eq(eligibilityChecks.id, id));
  if (!row) return undefined;
  // The coverage is lib/patients' (docs/decisions/128): asked by the check's coverage id.
  const coverage = row.check.coverageId ? await coverageSummary(db, row.check.coverageId) : undefined;
  return toView(row.check, {
    patient: row.patient,
    insurer: row.insurer ?? { id: row.check.insurerId, nameEn: row.check.insurerId, nameAr: row.check.insurerId },
    coverage,
    checkedByName: row.checkedByName ?? undefined,
  });
}

export function toView(
  check: EligibilityCheckRow,
  related: Pick<EligibilityCheckView, "patient" | "insurer" | "coverage" | "checkedByName">,
): EligibilityCheckView {
  let benefits: BenefitsView | undefined;
  if (check.outcome !== "rejected" && check.response) {
    // Read again from the answer as received, so every stored check shows what the reader makes of it now.
    try {
      benefits = readCoverageEligibilityResponse(check.response).view;
    } catch (error) {
      if (!isFhirReadError(error)) throw error;
    }
  }
  const view: EligibilityCheckView = {
    id: check.id,
    checkedAt: check.checkedAt.toISOString(),
    requestId: check.requestId,
    patient: related.patient,
    insurer: related.insurer,
    servicedDate: check.servicedDate,
    purposes: check.purposes,
    categories: check.categories,
    outcome: check.outcome,
    inforce: check.inforce,
  };
  if (related.coverage) view.coverage = related.coverage;
  if (related.checkedByName) view.checkedByName = related.checkedByName;
  // A discovery's Coverages that came as entries of the message (not in the response) are kept from the view read on arrival.
  const stored = check.responseView as Partial<BenefitsView> | null;
  if (benefits && !benefits.discovered && Array.isArray(stored?.discovered) && stored.discovered.length > 0) benefits = { ...benefits, discovered: stored.discovered };
  if (benefits) view.benefits = benefits;
  if (check.outcome === "rejected") {
    view.error = {
      ...(check.errorCode ? { code: check.errorCode } : {}),
      ...(check.httpStatus ? { status: check.httpStatus } : {}),
      field: (check.errorField as ErrorField | null) ?? errorField(check.errorCode ?? undefined, undefined),
    };
  }
  return view;
}

export interface CheckListItem {
  id: string;
  checkedAt: Date;
  servicedDate: string;
  outcome: EligibilityOutcome;
  errorCode: string | null;
  insurerId: string;
  insurerNameEn: string | null;
  insurerNameAr: string | null;
  checkedByName: string | null;
}

/** A patient's checks, newest first. */
export async function listChecksForPatient(db: Db, patientId: string, limit = 50): Promise<CheckListItem[]> {
  return db
    .select({
      id: eligibilityChecks.id,
      checkedAt: eligibilityChecks.checkedAt,
      servicedDate: eligibilityChecks.servicedDate,
      outcome: eligibilityChecks.outcome,
      errorCode: eligibilityChecks.errorCode,
      insurerId: eligibilityChecks.insurerId,
      insurerNameEn: insurers.nameEn,
      insurerNameAr: insurers.nameAr,
      checkedByName: users.name,
    })
    .from(eligibilityChecks)
    .leftJoin(insurers, eq(insurers.id, eligibilityChecks.insurerId))
    .leftJoin(users, eq(users.id, eligibilityChecks.checkedBy))
    .where(eq(eligibilityChecks.patientId, patientId))
    .orderBy(desc(eligibilityChecks.checkedAt))
    .limit(limit);
}

import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { eligibilityChecks } from "@/lib/db";
import { submissionCountsOfPatient } from "@/lib/submissions";
import { checkNationalId } from "@/lib/fhir";
import { findPatientByNationalId, getPatient, listCoverages } from "@/lib/patients";
import type { Patient } from "@/lib/patients";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { importVisitList, visitListStatus, VisitListBodySchema } from "@/lib/visits";

/*
 * The record agent: the portal's patient registry (lib/patients) seen by an automation. Answers
 * carry the portal's patient id, the display name, gender and birth YEAR — never the phone number
 * or the full birth date (docs/decisions/022-gateway.md).
 */


export const lookupDataSchema = z.strictObject({ nationalId: z.string().trim().min(1).max(20) });
export const summaryDataSchema = z.union([
  z.strictObject({ patientId: z.string().refine(isUuid, "expected the portal's patient id (UUID)") }),
  z.strictObject({ nationalId: z.string().trim().min(1).max(20) }),
]);

function validNationalId(value: string, allowSandboxTestIds: boolean, path: string): string {
  const check = checkNationalId(value, { allowSandboxTestIds });
  if (!check.valid) throw new AppError("unprocessable", check.message.en, { reason: "invalid_data", fields: [{ path, message: check.message.en }] });
  return check.value;
}

function basics(p: Patient) {
  return {
    patientId: p.id,
    name: `${p.givenName} ${p.familyName}`,
    gender: p.gender,
    birthYear: Number(p.birthDate.slice(0, 4)),
  };
}

/** `record.lookup`: is this national ID registered, and under which portal id. */
export async function recordLookup(db: Db, data: z.infer<typeof lookupDataSchema>, allowSandboxTestIds: boolean) {
  const nationalId = validNationalId(data.nationalId, allowSandboxTestIds, "data.nationalId");
  const patient = await findPatientByNationalId(db, nationalId);
  if (!patient) return { found: false as const, patient: null };
  const covs = await listCoverages(db, patient.id);
  return {
    found: true as const,
    patient: { ...basics(patient), coverages: covs.length, insurers: [...new Set(covs.map((c) => c.insurerId))] },
  };
}

/** `record.summary`: coverages, latest eligibility outcome, authorization and claim counts by status. */
export async function recordSummary(db: Db, data: z.infer<typeof summaryDataSchema>, allowSandboxTestIds: boolean) {
  const patient =
    "patientId" in data ? await getPatient(db, data.patientId) : await findPatientByNationalId(db, validNationalId(data.nationalId, allowSandboxTestIds, "data.nationalId"));
  if (!patient) throw new AppError("not_found", "No patient with this id is registered in the portal.");
  const [covs, [latest], byStatus] = await Promise.all([
    listCoverages(db, patient.id),
    db
      .select({
        outcome: eligibilityChecks.outcome,
        inforce: eligibilityChecks.inforce,
        insurerId: eligibilityChecks.insurerId,
        servicedDate: eligibilityChecks.servicedDate,
        errorCode: eligibilityChecks.errorCode,
        checkedAt: eligibilityChecks.checkedAt,
        id: eligibilityChecks.id,
      })
      .from(eligibilityChecks)
      .where(eq(eligibilityChecks.patientId, patient.id))
      .orderBy(desc(eligibilityChecks.checkedAt))
      .limit(1),
    submissionCountsOfPatient(db, patient.nationalId),
  ]);
  const tally = (kind: "claim" | "preauthorization") => {
    const rows = byStatus.filter((r) => r.kind === kind);
    return { total: rows.reduce((s, r) => s + Number(r.n), 0), byStatus: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) };
  };
  return {
    patient: basics(patient),
    coverages: covs.map((c) => ({
      coverageId: c.id,
      platformCoverageId: c.coverageRef,
      insurerId: c.insurerId,
      insurerName: { en: c.insurerNameEn, ar: c.insurerNameAr },
    })),
    latestEligibility: latest
      ? {
          checkId: latest.id,
          outcome: latest.outcome,
          inforce: latest.inforce,
          insurerId: latest.insurerId,
          servicedDate: latest.servicedDate,
          errorCode: latest.errorCode,
          checkedAt: latest.checkedAt.toISOString(),
        }
      : null,
    authorizations: tally("preauthorization"),
    claims: tally("claim"),
  };
}

/** `record.visits`: a visit list for eligibility ahead of the visit (the exchange API's body; bad items by number). */
export const visitsDataSchema = VisitListBodySchema;
export const visitsStatusDataSchema = z.strictObject({ listId: z.string().refine(isUuid, "expected the list id (UUID) record.visits answered") });

export async function recordVisits(db: Db, data: z.infer<typeof visitsDataSchema>, options: { allowSandboxTestIds: boolean; tokenId: string; tokenName: string; now?: Date }) {
  return importVisitList(db, {
    name: data.name ?? `${options.tokenName} ${data.visits[0]!.serviceDate}`,
    source: "gateway",
    createdBy: options.tokenId,
    items: data.visits,
    register: data.register,
    lowThresholdPercent: data.lowThresholdPercent,
    allowSandboxTestIds: options.allowSandboxTestIds,
    ...(data.run ? { run: data.run === "now" ? ("now" as const) : new Date(data.run) } : {}),
    now: options.now,
  });
}

/** `record.visitsStatus`: runs and verdicts of a list. */
export async function recordVisitsStatus(db: Db, data: z.infer<typeof visitsStatusDataSchema>) {
  const status = await visitListStatus(db, data.listId);
  if (!status) throw new AppError("not_found", "No visit list with this id.");
  return status;
}

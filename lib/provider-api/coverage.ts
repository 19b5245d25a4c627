import { randomUUID } from "node:crypto";
import type { Coverage } from "@medplum/fhirtypes";
import { env } from "@/lib/env";
import { clinicToday } from "@/lib/time";
import { buildEligibilityRequest } from "@/lib/fhir";
import { AppError, fhirResponse } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { coverageCard } from "@/lib/patients";
import type { CallContext } from "./api";
import { sendAndStore } from "./eligibility";

/** System of Coverage.identifier for the portal's own coverage record id. */
export const PORTAL_COVERAGE_ID_SYSTEM = "https://clinic.example/fhir/portal-coverage-id";

const COVERAGE_REF = /^[A-Za-z0-9\-.]{1,64}$/;

/**
 * GET /api/exchange/coverage/{id}: `id` is the portal's coverage record id (UUID) or the platform's
 * Coverage id (`cov-…`). Verified with the platform (an eligibility check, purpose `validation`,
 * for today), stored like any check, answered as a FHIR Coverage whose status follows `inforce`.
 */
export async function readCoverage(ctx: CallContext, rawId: string): Promise<Response> {
  const id = rawId.startsWith("Coverage/") ? rawId.slice("Coverage/".length) : rawId;
  if (!isUuid(id) && !COVERAGE_REF.test(id)) throw notFound();
  const row = await coverageCard(ctx.db, id);
  if (!row) throw notFound();
  ctx.audit.details.coverageId = row.coverageId;

  const timeZone = ctx.deps.timeZone ?? env().CLINIC_TIME_ZONE;
  const request = buildEligibilityRequest({
    identifierValue: randomUUID(),
    nationalId: row.nationalId,
    insurerId: row.insurerId,
    providerOrgId: ctx.deps.config.providerOrgId,
    servicedDate: clinicToday(timeZone, ctx.now),
    purposes: ["validation"],
    categories: [],
    created: ctx.now,
  });
  const { response } = await sendAndStore(ctx, request, { patientId: row.patientId, coverageId: row.coverageId });
  const insurance = response.insurance?.find((i) => i.coverage?.reference === `Coverage/${row.coverageRef}`) ?? response.insurance?.[0];
  const inforce = insurance?.inforce === true;
  const period = insurance?.benefitPeriod;
  const coverage: Coverage = {
    resourceType: "Coverage",
    id: row.coverageRef,
    meta: { lastUpdated: ctx.now.toISOString() },
    identifier: [{ system: PORTAL_COVERAGE_ID_SYSTEM, value: row.coverageId }],
    status: inforce ? "active" : "cancelled",
    subscriberId: row.memberId,
    beneficiary: { reference: `Patient/${row.nationalId}` },
    payor: [{ reference: `Organization/${row.insurerId}`, ...(row.insurerName ? { display: row.insurerName } : {}) }],
    ...(period && (period.start || period.end) ? { period: { ...(period.start ? { start: period.start } : {}), ...(period.end ? { end: period.end } : {}) } } : {}),
  };
  return fhirResponse(coverage, 200);
}

function notFound(): AppError {
  return new AppError("not_found", "No such coverage is known to this portal.", { reason: "unknown_coverage" });
}

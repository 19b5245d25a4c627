import { and, desc, eq, ne } from "drizzle-orm";
import type { Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { coverages, eligibilityChecks } from "@/lib/db";
import { env } from "@/lib/env";
import { isBenefitCategoryCode } from "@/lib/fhir";
import { userFacilityId } from "@/lib/facilities";
import { getPlatformPort } from "@/lib/platform";
import { runEligibilityCheck, type EligibilityDeps } from "./service";

/**
 * A fresh eligibility answer before a claim or authorization is queued (docs/decisions/090): the
 * scrubber's coverage rule reads the last stored answer, so when there is none for the service
 * date, or it is older than `maxAgeHours`, the portal checks again through the front desk's own
 * check (stored and audited like any) — before the submit's transaction, never inside it.
 */
export type FreshEligibility =
  /** A stored answer for the date, recent enough: nothing was sent. */
  | { kind: "recent"; checkId: string }
  /** A check was sent and answered (in force or not): stored. */
  | { kind: "checked"; checkId: string }
  /** The platform refused, was busy or out of reach: the submit goes on with a notice. */
  | { kind: "unconfirmed"; reason: string };

export interface FreshnessRequest {
  /** The portal's patient id (uuid) and the coverage the claim names. */
  patientId: string;
  coverageId: string;
  /** The first service date of the claim's lines (YYYY-MM-DD). */
  servicedDate: string;
  /**
   * The benefit categories of the claim's lines, when known: the check asks for them, so the
   * answer says of each whether the plan covers it (none: every category of the plan).
   */
  categories?: readonly string[];
}

/** The eligibility module's deps, with the platform client made only when a check is due. */
export type FreshnessDeps = Omit<EligibilityDeps, "client"> & { client: () => Promise<EligibilityDeps["client"]> };

export async function ensureRecentEligibility(deps: FreshnessDeps, caller: Caller, request: FreshnessRequest, maxAgeHours: number): Promise<FreshEligibility> {
  const now = (deps.now ?? (() => new Date()))();
  const [coverage] = await deps.db.select({ insurerId: coverages.insurerId }).from(coverages).where(and(eq(coverages.id, request.coverageId), eq(coverages.patientId, request.patientId))).limit(1);
  if (!coverage) return { kind: "unconfirmed", reason: "coverage_unknown" };
  const [last] = await deps.db
    .select({ id: eligibilityChecks.id, checkedAt: eligibilityChecks.checkedAt, servicedDate: eligibilityChecks.servicedDate })
    .from(eligibilityChecks)
    .where(and(eq(eligibilityChecks.patientId, request.patientId), eq(eligibilityChecks.insurerId, coverage.insurerId), ne(eligibilityChecks.outcome, "rejected")))
    .orderBy(desc(eligibilityChecks.checkedAt))
    .limit(1);
  if (last && last.servicedDate === request.servicedDate && now.getTime() - last.checkedAt.getTime() <= maxAgeHours * 3_600_000) return { kind: "recent", checkId: last.id };

  let client: EligibilityDeps["client"];
  try {
    client = await deps.client();
  } catch {
    return { kind: "unconfirmed", reason: "platform_unavailable" };
  }
  const outcome = await runEligibilityCheck({ ...deps, client }, caller, { patientId: request.patientId, coverageId: request.coverageId, servicedDate: request.servicedDate, purposes: ["benefits", "validation"], categories: [...new Set((request.categories ?? []).filter(isBenefitCategoryCode))] });
  switch (outcome.kind) {
    case "answered":
      return { kind: "checked", checkId: outcome.check.id };
    case "rejected":
      return { kind: "unconfirmed", reason: outcome.code ?? `http_${outcome.status}` };
    case "rate_limited":
      return { kind: "unconfirmed", reason: "rate_limited" };
    case "unavailable":
      return { kind: "unconfirmed", reason: outcome.reason };
    case "invalid":
      return { kind: "unconfirmed", reason: "invalid" };
  }
}

/** The `refreshEligibility` of lib/submissions' ServiceDeps: the screens' submit paths pass it. */
export function eligibilityRefresher(deps: FreshnessDeps, caller: Caller, maxAgeHours: number) {
  return (request: FreshnessRequest) => ensureRecentEligibility(deps, caller, request, maxAgeHours);
}

/**
 * The screens' refresher (the form's submit, "submit selected"): the check goes out with the
 * certificate of the facility the user works at (decision 049), as the front desk's does; the
 * age limit is ELIGIBILITY_MAX_AGE_HOURS.
 */
export function staffEligibilityRefresher(db: Db, caller: Caller) {
  return eligibilityRefresher({ db, providerOrgId: env().PROVIDER_ORG_ID, client: async () => getPlatformPort(caller.userId ? await userFacilityId(db, caller.userId) : null) }, caller, env().ELIGIBILITY_MAX_AGE_HOURS);
}

import { and, desc, eq, ne } from "drizzle-orm";
import type { Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { eligibilityChecks } from "@/lib/db";
import { env } from "@/lib/env";
import { benefitCategoryOf, isBenefitCategoryCode } from "@/lib/fhir";
import { coverageOfHolderByRef, coverageTermsOf } from "@/lib/patients";
import { runEligibilityCheck, type EligibilityDeps } from "./service";

/**
 * A fresh eligibility answer before a claim or authorization is sent (docs/decisions/090, 124): the
 * scrubber's coverage rule reads the last stored answer, so when there is none for the service
 * date, or it is older than `maxAgeHours`, the outbox checks again through the front desk's own
 * check (stored and audited like any) — in the background, before sending, never in the submit.
 */
export type FreshEligibility =
  /** A stored answer for the date, recent enough: nothing was sent. */
  | { kind: "recent"; checkId: string }
  /** A check was sent and answered (in force or not): stored. */
  | { kind: "checked"; checkId: string }
  /** The platform refused, was busy or out of reach: the claim goes on with a notice. */
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
  const coverage = await coverageTermsOf(deps.db, request.patientId, request.coverageId);
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

/** A submission as the outbox hands it over: the national ID, its payer and the stored FHIR Claim. */
export interface QueuedClaim {
  /** National ID / Iqama (what the claim names the patient by). */
  patientNationalId: string;
  claim: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v.filter((x) => typeof x === "object" && x !== null) as Json[]) : []);
const text = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * What a queued claim relies on, read from its stored Claim: the portal's patient and coverage
 * (the focal insurance's `Coverage/<coverageRef>`), the first service date and the lines' benefit
 * categories. Undefined when the claim names no coverage of that patient or no service date.
 */
export async function freshnessRequestOf(db: Db, queued: QueuedClaim): Promise<FreshnessRequest | undefined> {
  const insurance = list(queued.claim.insurance);
  const focal = insurance.find((i) => i.focal === true) ?? insurance[0];
  const reference = text((focal?.coverage as Json | undefined)?.reference);
  if (!reference.startsWith("Coverage/")) return undefined;
  const row = await coverageOfHolderByRef(db, queued.patientNationalId, reference.slice("Coverage/".length));
  const items = list(queued.claim.item);
  const days = items.map((i) => text(i.servicedDate).slice(0, 10) || text((i.servicedPeriod as Json | undefined)?.start).slice(0, 10)).filter(Boolean).sort();
  if (!row || days.length === 0) return undefined;
  const categories = items.flatMap((i) => {
    const coding = list((i.productOrService as Json | undefined)?.coding)[0];
    const category = coding ? benefitCategoryOf(text(coding.system) || undefined, text(coding.code)) : undefined;
    return category ? [category] : [];
  });
  return { patientId: row.patientId, coverageId: row.coverageId, servicedDate: days[0]!, categories: [...new Set(categories)] };
}

/**
 * The outbox's check before it sends a claim or authorization (docs/decisions/124): a recent stored
 * answer for the patient, coverage and first service date sends nothing; otherwise the exchange is
 * asked through the submission's own port (its facility's certificate), stored and audited like the
 * front desk's check, by the system. Runs in the background, never in a staff member's request.
 * `none`: the claim names no coverage of its patient (a newborn under the mother's coverage has
 * its own checks) or no service date.
 */
export function preSendEligibility(deps: { db: Db; providerOrgId: string; maxAgeHours: number; protocol?: "rest" | "messaging"; now?: () => Date; warn?: (line: string) => void }) {
  const caller: Caller = { actor: { kind: "system", name: "outbox" } };
  return async (queued: QueuedClaim, port: EligibilityDeps["client"]): Promise<FreshEligibility | { kind: "none" }> => {
    const request = await freshnessRequestOf(deps.db, queued);
    if (!request) return { kind: "none" };
    const { maxAgeHours, ...rest } = deps;
    // The outbox waits its turn at the rate limiter (batch priority) instead of giving up.
    return ensureRecentEligibility({ ...rest, batch: true, client: async () => port }, caller, request, maxAgeHours);
  };
}

/** The portal's pre-send check, as the process's pipeline runs it (lib/server): ELIGIBILITY_MAX_AGE_HOURS, PLATFORM_PROTOCOL. */
export function outboxEligibility(db: Db) {
  return preSendEligibility({ db, providerOrgId: env().PROVIDER_ORG_ID, maxAgeHours: env().ELIGIBILITY_MAX_AGE_HOURS, protocol: env().PLATFORM_PROTOCOL });
}

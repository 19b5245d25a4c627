import type { Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { auditedAddCoverage, isCardDate, listCoverages } from "@/lib/patients";
import type { PeriodView } from "@/lib/fhir";
import { getCheckView } from "./store";

export type RegisterDiscoveredResult =
  | { ok: true; coverageId: string; patientId: string }
  | { ok: false; reason: "not_found" | "coverageUnknown" | "coverageDuplicate" | "insurerUnknown" | "memberIdMissing" };

const CODE = /^[A-Za-z0-9\-_.]{0,40}$/;

/**
 * Registers a coverage a discovery reported (guide 7.1, Table 36) on the check's patient: insurer,
 * member number, the exchange's Coverage id, class and network (the contract's rows, decision 089).
 * The coverage must be one the stored answer names; registering it twice is `coverageDuplicate`.
 * The answer's period end, when given, is the card's expiry (decision 126).
 */
export async function registerDiscoveredCoverage(db: Db, caller: Caller, checkId: string, coverageRef: string): Promise<RegisterDiscoveredResult> {
  const check = await getCheckView(db, checkId);
  if (!check) return { ok: false, reason: "not_found" };
  const found = check.benefits?.discovered?.find((c) => c.coverageId === coverageRef);
  if (!found) return { ok: false, reason: "coverageUnknown" };
  if (!found.memberId) return { ok: false, reason: "memberIdMissing" };
  const existing = (await listCoverages(db, check.patient.id)).find((c) => c.coverageRef === coverageRef);
  if (existing) return { ok: false, reason: "coverageDuplicate" };
  const result = await auditedAddCoverage(db, caller, {
    patientId: check.patient.id,
    insurerId: found.insurerId ?? check.insurer.id,
    memberId: found.memberId.slice(0, 40),
    coverageRef,
    // Only codes the card form takes (letters, digits, - _ .): anything else is left for the desk.
    network: found.network && CODE.test(found.network) ? found.network : "",
    coverageClass: found.coverageClass && CODE.test(found.coverageClass) ? found.coverageClass : "",
    expiresOn: expiryOf(found.period),
  });
  if (!result.ok) return { ok: false, reason: result.reason === "duplicate" ? "coverageDuplicate" : result.reason === "unknown_insurer" ? "insurerUnknown" : "not_found" };
  return { ok: true, coverageId: result.coverage.id, patientId: check.patient.id };
}

/**
 * The card's expiry from a discovery answer's Coverage.period (decision 126): the end's calendar
 * day (a date, or a date-time read as the day it names), when it is a real day and not before the
 * start; "" otherwise (the desk types it from the card).
 */
export function expiryOf(period: PeriodView | undefined): string {
  const end = period?.end?.slice(0, 10) ?? "";
  if (!isCardDate(end)) return "";
  const start = period?.start?.slice(0, 10);
  return start && isCardDate(start) && end < start ? "" : end;
}

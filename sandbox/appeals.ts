import { ADJUDICATION_REASONS, nphies, type AdjudicationReasonCode } from "../lib/fhir";
import { identifierKey, type ClaimRecord } from "./store";
import type { ValidatedClaim, ValidatedItem } from "./validation";

/**
 * Appeals (sandbox/README.md "Appeals", docs/decisions/081). A claim that names, with relationship
 * `prior`, a claim this sandbox decided `denied` or `partial` for the same patient is an appeal of
 * it. Each of its lines that matches a line of the prior decision (same code and service date) that
 * was denied or cut is ruled on:
 *   - overturned when the appeal carries a written justification (supportingInfo `info`) AND at
 *     least one supporting file (supportingInfo `attachment` with data) — unless the prior reason
 *     was `coverage-inactive` (no document puts a lapsed policy back in force);
 *   - upheld otherwise: the line gets the prior decision again (same amounts, same reason).
 * Lines the prior decision paid in full, or that it never saw, are adjudicated as usual.
 */
export interface PriorLine {
  denied: boolean;
  eligible: number;
  copay: number;
  benefit: number;
  reason: AdjudicationReasonCode | undefined;
}

export interface AppealRuling {
  /** Justification and at least one file. */
  evidenced: boolean;
  /** The prior's denied or cut lines by `code|servicedDate`. */
  lines: Map<string, PriorLine>;
}

export type LineRuling = { kind: "overturned" | "upheld"; prior: PriorLine };

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === "object" && x !== null) : []);
const minor = (v: unknown): number => (typeof (v as Json | undefined)?.value === "number" ? Math.round(((v as Json).value as number) * 100) : 0);
const isReason = (code: unknown): code is AdjudicationReasonCode => typeof code === "string" && Object.prototype.hasOwnProperty.call(ADJUDICATION_REASONS, code);

export const lineKey = (code: string, servicedDate: string) => `${code}|${servicedDate}`;

/** The denied or cut lines of a decided claim, read from its stored Claim and ClaimResponse. */
function priorLines(record: ClaimRecord): Map<string, PriorLine> {
  const out = new Map<string, PriorLine>();
  const items = new Map(list(record.claim.item).map((i) => [i.sequence, i]));
  for (const answered of list(record.response.item)) {
    const item = items.get(answered.itemSequence);
    const code = list((item?.productOrService as Json | undefined)?.coding)[0]?.code;
    const date = typeof item?.servicedDate === "string" ? item.servicedDate : typeof (item?.servicedPeriod as Json | undefined)?.start === "string" ? String((item!.servicedPeriod as Json).start).slice(0, 10) : undefined;
    if (typeof code !== "string" || !date) continue;
    const adjudication = list(answered.adjudication);
    const amount = (category: string) => adjudication.find((a) => list((a.category as Json | undefined)?.coding)[0]?.code === category);
    const benefit = amount("benefit");
    const reasonCode = list((benefit?.reason as Json | undefined)?.coding)[0]?.code;
    const reason = isReason(reasonCode) ? reasonCode : undefined;
    const eligible = minor(amount("eligible")?.amount);
    const denied = eligible === 0 && reason !== undefined && reason !== "package-included";
    if (!denied && (reason === undefined || reason === "package-included")) continue;
    out.set(lineKey(code, date), { denied, eligible, copay: minor(amount("copay")?.amount), benefit: minor(benefit?.amount), reason });
  }
  return out;
}

/** The ruling an appeal gets, or undefined when the claim appeals nothing this sandbox decided. */
export function appealRuling(v: ValidatedClaim, providerOrgId: string, find: { getClaim(id: string): ClaimRecord | undefined; findByIdentifier(key: string): ClaimRecord | undefined }): AppealRuling | undefined {
  if (v.use !== "claim") return undefined;
  for (const prior of nphies.priorClaimsOf(v.received)) {
    const record =
      (prior.id ? find.getClaim(prior.id) : undefined) ??
      (prior.identifier ? find.findByIdentifier(identifierKey(providerOrgId, prior.identifier.system, prior.identifier.value)) : undefined);
    if (!record || record.use !== "claim" || record.patientId !== v.patientId || (record.status !== "denied" && record.status !== "partial")) continue;
    const evidence = nphies.appealEvidenceOf(v.received);
    return { evidenced: Boolean(evidence.justification) && evidence.files > 0, lines: priorLines(record) };
  }
  return undefined;
}

/** The ruling on one line of an appeal, or undefined when the line is adjudicated as usual. */
export function ruleOnLine(ruling: AppealRuling | undefined, item: ValidatedItem): LineRuling | undefined {
  const prior = ruling?.lines.get(lineKey(item.code, item.servicedDate));
  if (!ruling || !prior) return undefined;
  return ruling.evidenced && prior.reason !== "coverage-inactive" ? { kind: "overturned", prior } : { kind: "upheld", prior };
}

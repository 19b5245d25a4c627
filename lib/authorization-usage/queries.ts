import type { Db } from "@/lib/db";
import { toMinorUnits } from "@/lib/fhir";
import { providedAuthorizationUsageReads } from "./reads";
import type { AuthorizationUsage, ServiceUsage } from "./usage";

type ClaimJson = { item?: { sequence?: number; productOrService?: { coding?: { system?: string; code?: string }[] }; quantity?: { value?: number }; unitPrice?: { value?: number } }[] };
type ViewJson = {
  preAuthRef?: string;
  preAuthPeriod?: { start?: string; end?: string };
  items?: { sequence?: number; approvedQuantity?: number; decision?: string; amounts?: { eligible?: { minor?: number } } }[];
  /** A payer's advanced authorization approves its lines as added items (docs/decisions/101). */
  addItems?: { itemSequences?: number[]; service?: { code?: string }; approvedQuantity?: number; decision?: string; amounts?: { eligible?: { minor?: number } } }[];
};

/**
 * What an approved authorization allows per service (approved quantity: the payer's
 * approved-quantity when given, else the requested quantity of an approved line, 0 for a denied
 * one) against what its linked claims consumed. `excludeSubmissionId`: the claim being edited,
 * which must not count against itself. Undefined when there is no decided authorization. The rows
 * come from lib/submissions' reads (./reads.ts).
 */
export async function authorizationUsage(db: Db, authorizationId: string, excludeSubmissionId?: string, versionIds: readonly string[] = []): Promise<AuthorizationUsage | undefined> {
  const reads = providedAuthorizationUsageReads();
  const auth = await reads.authorization(db, authorizationId);
  if (!auth || auth.kind !== "preauthorization" || !["complete", "partial"].includes(auth.status)) return undefined;
  const view = (auth.view ?? {}) as ViewJson;
  const byCode = new Map<string, ServiceUsage>();
  for (const item of (auth.claim as ClaimJson).item ?? []) {
    const coding = item.productOrService?.coding?.[0];
    const code = coding?.code;
    if (!code) continue;
    // An answer to our request decides our lines by sequence; an advanced authorization (no request) approves its added items.
    const line =
      view.items?.find((l) => l.sequence === item.sequence) ??
      view.addItems?.find((l) => l.service?.code === code && (!l.itemSequences?.length || (item.sequence !== undefined && l.itemSequences.includes(item.sequence))));
    const requested = item.quantity?.value ?? 1;
    const approved = line?.approvedQuantity ?? (line?.decision === "approved" || line?.decision === "partly-approved" ? requested : 0);
    const s = byCode.get(code) ?? { code, ...(coding?.system ? { system: coding.system } : {}), approvedQuantity: 0, approvedMinor: null, usedQuantity: 0, usedMinor: 0, remainingQuantity: 0 };
    s.approvedQuantity += approved;
    const eligible = line?.amounts?.eligible?.minor;
    if (typeof eligible === "number") s.approvedMinor = (s.approvedMinor ?? 0) + eligible;
    byCode.set(code, s);
  }
  // Claims made from any version of the authorization (decision 114) count against the current one.
  const claims = await reads.consumingClaims(db, authorizationId, versionIds, excludeSubmissionId);
  for (const { claim } of claims) {
    for (const item of (claim as ClaimJson).item ?? []) {
      const s = byCode.get(item.productOrService?.coding?.[0]?.code ?? "");
      if (!s) continue;
      const q = item.quantity?.value ?? 1;
      s.usedQuantity += q;
      s.usedMinor += (toMinorUnits(item.unitPrice?.value ?? 0) ?? 0) * q;
    }
  }
  const services = [...byCode.values()].map((s) => ({ ...s, remainingQuantity: Math.max(0, s.approvedQuantity - s.usedQuantity) }));
  const period = view.preAuthPeriod ? { start: view.preAuthPeriod.start?.slice(0, 10) ?? null, end: view.preAuthPeriod.end?.slice(0, 10) ?? null } : null;
  return { authorizationId, preAuthRef: view.preAuthRef ?? null, period, services, claims: claims.length };
}

/**
 * Authorization usage (docs/decisions/048), shared by the server (what linked claims consumed) and the claim
 * form (warnings before sending): pure functions over plain data, no database.
 */

/** One authorized service: what the payer approved and what linked claims have used. */
export interface ServiceUsage {
  code: string;
  /** The code list the authorization named the service in (canonical URL); absent on older rows. */
  system?: string;
  approvedQuantity: number;
  /** The payer's eligible amount for the service (halalas), when the decision gives one. */
  approvedMinor: number | null;
  usedQuantity: number;
  usedMinor: number;
  remainingQuantity: number;
}

export interface AuthorizationUsage {
  authorizationId: string;
  preAuthRef: string | null;
  /** Validity (YYYY-MM-DD, inclusive) from ClaimResponse.preAuthPeriod; null ends = open. */
  period: { start: string | null; end: string | null } | null;
  services: ServiceUsage[];
  /** Linked claims that count (sent or decided, not rejected/failed/cancelled/denied/drafts). */
  claims: number;
}

export type UsageWarning =
  | { kind: "exceeds"; code: string; asked: number; remaining: number }
  | { kind: "notAuthorized"; code: string }
  | { kind: "outsidePeriod"; code: string; date: string; start: string | null; end: string | null };

export interface ClaimItemInput {
  code: string;
  servicedDate: string;
  quantity: string | number;
}

/** Warnings for a claim about to be sent against its authorization's remaining usage. */
export function usageWarnings(usage: AuthorizationUsage, items: readonly ClaimItemInput[]): UsageWarning[] {
  const warnings: UsageWarning[] = [];
  const asked = new Map<string, number>();
  for (const item of items) {
    if (!item.code) continue;
    const q = typeof item.quantity === "number" ? item.quantity : Number.parseInt(item.quantity, 10);
    asked.set(item.code, (asked.get(item.code) ?? 0) + (Number.isFinite(q) && q > 0 ? q : 0));
    const p = usage.period;
    if (p && /^\d{4}-\d{2}-\d{2}$/.test(item.servicedDate) && ((p.start && item.servicedDate < p.start) || (p.end && item.servicedDate > p.end))) {
      warnings.push({ kind: "outsidePeriod", code: item.code, date: item.servicedDate, start: p.start, end: p.end });
    }
  }
  for (const [code, quantity] of asked) {
    const service = usage.services.find((s) => s.code === code);
    if (!service) warnings.push({ kind: "notAuthorized", code });
    else if (quantity > service.remainingQuantity) warnings.push({ kind: "exceeds", code, asked: quantity, remaining: service.remainingQuantity });
  }
  return warnings;
}

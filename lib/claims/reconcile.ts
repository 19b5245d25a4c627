import type { Db, SubmissionStatus } from "@/lib/db";
import { claimTotalMinor, claimsByPlatformIdOrIdentifier } from "@/lib/submissions";
import { toMinorUnits } from "@/lib/fhir";

/**
 * Reconciliation with the platform (endpoint 5): the platform's claims of one patient created on or
 * after a date, compared with the portal's records — matched by platform id, then by our business
 * identifier. Differences: unknown to the portal, status, total.
 */
type Json = Record<string, unknown>;

export interface PlatformClaimLite {
  /** The platform's id, when it gave one (the national exchange names claims by our identifier). */
  platformId?: string;
  identifierValue?: string;
  status?: string;
  totalMinor?: number;
  created?: string;
}

export interface ReconcileRow extends PlatformClaimLite {
  portal?: { id: string; status: SubmissionStatus; totalMinor: number | null };
  problems: ("unknown" | "status" | "amount")[];
}

/** The platform's processing status of a Claim (an extension), as the portal names states. */
export function platformStatusOf(claim: Json): string | undefined {
  const ext = Array.isArray(claim.extension) ? (claim.extension as { url?: string; valueCode?: string }[]) : [];
  return ext.find((e) => e.url?.endsWith("/claim-processing-status"))?.valueCode;
}

export function liteOf(claim: Json): PlatformClaimLite {
  const identifier = Array.isArray(claim.identifier) ? (claim.identifier as { value?: string }[])[0]?.value : undefined;
  // Claims carry no total: the submitted total is summed exactly from the items, like ours.
  const declared = (claim.total as Json | undefined)?.value;
  const total = claimTotalMinor(claim)?.totalMinor ?? (typeof declared === "number" ? toMinorUnits(declared) : undefined);
  return {
    ...(typeof claim.id === "string" && claim.id ? { platformId: claim.id } : {}),
    ...(identifier ? { identifierValue: identifier } : {}),
    ...(platformStatusOf(claim) ? { status: platformStatusOf(claim) } : {}),
    ...(typeof total === "number" ? { totalMinor: total } : {}),
    ...(typeof claim.created === "string" ? { created: claim.created } : {}),
  };
}

/** Portal states the platform would report the same way (sent = the platform holds it, still queued there). */
function sameStatus(portal: SubmissionStatus, platform: string | undefined): boolean {
  if (!platform) return true;
  if (portal === platform) return true;
  return portal === "sent" && platform === "queued";
}

export async function reconcile(db: Db, platformClaims: readonly Json[]): Promise<ReconcileRow[]> {
  const lite = platformClaims.map(liteOf).filter((c) => c.platformId || c.identifierValue);
  if (!lite.length) return [];
  const pids = lite.flatMap((c) => (c.platformId ? [c.platformId] : []));
  const idents = lite.flatMap((c) => (c.identifierValue ? [c.identifierValue] : []));
  const mine = await claimsByPlatformIdOrIdentifier(db, pids, idents);
  return lite.map((c) => {
    const match = mine.find((m) => c.platformId && m.platformId === c.platformId) ?? mine.find((m) => c.identifierValue && m.identifierValue === c.identifierValue);
    if (!match) return { ...c, problems: ["unknown"] };
    const problems: ReconcileRow["problems"] = [];
    if (!sameStatus(match.status, c.status)) problems.push("status");
    if (c.totalMinor !== undefined && match.totalMinor !== null && c.totalMinor !== match.totalMinor) problems.push("amount");
    return { ...c, portal: { id: match.id, status: match.status, totalMinor: match.totalMinor }, problems };
  });
}

import type { Db } from "@/lib/db";
import { standingClaimsOf } from "@/lib/submissions";

/**
 * Duplicate detection: a claim is "already claimed" when another claim of the same patient, not
 * rejected / failed / cancelled and no longer a draft, has the same set of items (code, date of
 * service, quantity). A warning the user may confirm, never a block.
 */
export interface ItemKey {
  code: string;
  servicedDate: string;
  quantity: string;
}

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

export function itemSignature(items: readonly ItemKey[]): string {
  return items
    .map((i) => `${i.code}|${i.servicedDate}|${String(Number(i.quantity))}`)
    .sort()
    .join(";");
}

/** The item keys of a stored FHIR Claim. */
export function claimItemKeys(claim: Json): ItemKey[] {
  return arr(claim.item).map((item) => ({
    code: String(arr((item.productOrService as Json | undefined)?.coding)[0]?.code ?? ""),
    servicedDate: String(item.servicedDate ?? ""),
    quantity: String(((item.quantity as Json | undefined)?.value as number | undefined) ?? 1),
  }));
}

export async function findDuplicateClaims(db: Db, input: { nationalId: string; items: readonly ItemKey[]; excludeId?: string }): Promise<{ id: string; status: string; createdAt: Date }[]> {
  if (!input.items.length) return [];
  const signature = itemSignature(input.items);
  const rows = await standingClaimsOf(db, input.nationalId, input.excludeId);
  return rows.filter((r) => itemSignature(claimItemKeys(r.claim)) === signature).map(({ id, status, createdAt }) => ({ id, status, createdAt }));
}

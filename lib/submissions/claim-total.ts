import { toMinorUnits } from "@/lib/fhir";

/**
 * The submitted total of a Claim in minor units (halalas), summed exactly: each unit price is
 * converted to an integer once, multiplied by its whole quantity, and the integers are added.
 * Undefined when an item has no price, a non-whole quantity or mixes currencies.
 */
export function claimTotalMinor(claim: Record<string, unknown>): { totalMinor: number; currency: string } | undefined {
  const items = Array.isArray(claim.item) ? (claim.item as Record<string, unknown>[]) : [];
  if (items.length === 0) return undefined;
  let total = 0;
  let currency: string | undefined;
  for (const item of items) {
    const price = item.unitPrice as { value?: unknown; currency?: unknown } | undefined;
    if (typeof price?.value !== "number") return undefined;
    const unit = toMinorUnits(price.value);
    const qtyRaw = (item.quantity as { value?: unknown } | undefined)?.value ?? 1;
    if (unit === undefined || typeof qtyRaw !== "number" || !Number.isInteger(qtyRaw) || qtyRaw < 0) return undefined;
    const c = typeof price.currency === "string" ? price.currency : "SAR";
    if (currency && c !== currency) return undefined;
    currency = c;
    total += unit * qtyRaw;
    if (!Number.isSafeInteger(total)) return undefined;
  }
  return { totalMinor: total, currency: currency ?? "SAR" };
}

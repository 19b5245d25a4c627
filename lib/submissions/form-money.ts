/**
 * Exact money for forms: amounts are typed as decimal strings ("2500", "2500.5", "2,500.50") and
 * turned into integer halalas once; line totals and sums are integer arithmetic, never floats.
 */
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** "1,250.5" → 125050; undefined when not a non-negative amount with at most two decimals. */
export function parseAmountMinor(text: string): number | undefined {
  const clean = text.trim().replace(/[,\s\u066c]/g, "").replace(/\u066b/g, ".");
  const ascii = clean.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
  if (!AMOUNT.test(ascii)) return undefined;
  const [whole, frac = ""] = ascii.split(".");
  const minor = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** "3" → 3; undefined unless a whole number from 1 to 1000. */
export function parseQuantity(text: string): number | undefined {
  const ascii = text.trim().replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
  if (!/^\d{1,4}$/.test(ascii)) return undefined;
  const n = Number(ascii);
  return n >= 1 && n <= 1000 ? n : undefined;
}

/** quantity × unit price in halalas, or undefined when either is not valid. */
export function lineTotalMinor(quantity: string, unitPrice: string): number | undefined {
  const q = parseQuantity(quantity);
  const p = parseAmountMinor(unitPrice);
  return q === undefined || p === undefined ? undefined : q * p;
}


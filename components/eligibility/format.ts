/**
 * Amounts in minor units (halalas) formatted for the UI language with Intl.NumberFormat. The
 * division is for display only: stored and compared amounts stay integers.
 */
export function formatMoney(minor: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

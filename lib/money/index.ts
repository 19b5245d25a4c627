import { PLATFORM_CURRENCY } from "@/lib/fhir/browser";

/**
 * Money for display and for the wire's decimal strings: amounts are integer minor units
 * (halalas) everywhere in the portal; this is the one place that turns them into text. The
 * conversions to and from FHIR `Money` (`toMinorUnits`, `money`, `formatMinorUnits`) stay in
 * lib/fhir/money.ts, next to the resource schemas the sandbox shares.
 */

/** Minor units → exact decimal string ("-0.05", "1234567890123456.78"), integers only. */
export function minorToDecimal(minor: string | number | bigint, digits = 2): string {
  const value = BigInt(minor);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(digits);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(digits, "0");
  return `${negative ? "-" : ""}${whole}${digits ? `.${fraction}` : ""}`;
}

/**
 * Minor units as currency text for the UI language ("SAR 1,234.50", "١٬٢٣٤٫٥٠ ر.س."). Intl formats
 * the decimal string exactly — no float on the way; an unknown currency code falls back to
 * "1234.50 XYZ" instead of throwing.
 */
export function formatMoney(minor: string | number | bigint, locale: string, currency: string = PLATFORM_CURRENCY): string {
  const decimal = minorToDecimal(minor);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(decimal as Intl.StringNumericLiteral);
  } catch {
    return `${decimal} ${currency}`;
  }
}

/**
 * The currency's symbol as {@link formatMoney} writes it for the UI language ("SAR", "ر.س."): the
 * one form for column headings and labels, so a heading and the amounts under it always agree.
 */
export function currencySymbol(locale: string, currency: string = PLATFORM_CURRENCY): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).formatToParts(0).find((p) => p.type === "currency")?.value ?? currency;
  } catch {
    return currency;
  }
}

import { formatMinorUnits } from "@/lib/fhir/browser";

/** Halalas → "2,500.00" — string arithmetic, never a float sum. */
export function formatAmount(minor: number | undefined | null): string {
  return minor === undefined || minor === null ? "—" : formatMinorUnits(minor);
}

import type { Db } from "@/lib/db";
import { insurers } from "@/lib/db";

/** Insurer display names in the locale; unknown ids (e.g. seeded payers) show as themselves. */
export async function insurerNames(db: Db, locale: string): Promise<(id: string) => string> {
  const rows = await db.select({ id: insurers.id, en: insurers.nameEn, ar: insurers.nameAr }).from(insurers);
  const names = new Map(rows.map((r) => [r.id, locale === "ar" ? r.ar : r.en]));
  return (id: string) => (id ? (names.get(id) ?? id) : "—");
}

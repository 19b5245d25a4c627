import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { draftDuplicates } from "@/lib/claims";
import type { Db } from "@/lib/db";

/**
 * Shown above a claim draft that looks already claimed (same patient, date of service and items):
 * a warning, not a block — the user may still submit.
 */
export async function DuplicateWarning({ db, draftId }: { db: Db; draftId: string }) {
  const found = await draftDuplicates(db, draftId);
  if (!found.length) return null;
  const [t, format] = [await getTranslations("claims.duplicate"), await getFormatter()];
  return (
    <div role="alert" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="duplicate-warning">
      <p className="font-medium">{t("title")}</p>
      <p className="mt-1">{t("text")}</p>
      <ul className="mt-1">
        {found.map((d) => (
          <li key={d.id}>
            <Link href={`/claims/${d.id}`} className="underline">
              {t("open")} ({format.dateTime(d.createdAt, { dateStyle: "medium", timeStyle: "short" })})
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
